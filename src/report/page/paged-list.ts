// A list shown a page at a time (the case list, the matrix grid, the history's cases): a large run
// builds only the rows on screen, and "Show more" adds the next page.

/**
 * Lists rows into `into`, `size` at a time, with `more` adding the next page (hidden once all are
 * shown); `onPage(shown, total)` runs after each page. Returns `show(items)`, which replaces what is
 * listed (e.g. after a filter changed) and shows its first page.
 */
export function pagedList<T>(into: Node, more: HTMLButtonElement, size: number, row: (item: T) => Node, onPage?: (shown: number, total: number) => void): (items: T[]) => void {
  let items: T[] = [];
  let next = 0;
  const page = (): void => {
    const stop = Math.min(items.length, next + size);
    for (; next < stop; next++) into.appendChild(row(items[next] as T));
    more.hidden = next >= items.length;
    if (onPage) onPage(next, items.length);
  };
  more.addEventListener('click', page);
  return (shown: T[]): void => {
    items = shown;
    next = 0;
    (into as HTMLElement).textContent = '';
    page();
  };
}
