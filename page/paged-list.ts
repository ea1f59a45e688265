// A list shown a page at a time (the case list, the matrix grid, the history's cases): a large run
// builds only the rows on screen, and "Show more" adds the next page.

/** Replaces what is listed (e.g. after a filter changed) and shows its first page. */
export interface Paged<T> {
  (items: T[]): void;
  /** The row of the item at `position` in what is listed, adding pages up to it; undefined past the end. */
  rowAt(position: number): Node | undefined;
}

/**
 * Lists rows into `into`, `size` at a time, with `more` adding the next page (hidden once all are
 * shown); `onPage(shown, total)` runs after each page. Returns `show(items)`, which replaces what is
 * listed and shows its first page, and `show.rowAt(position)`, which brings a later row onto the page.
 */
export function pagedList<T>(into: Node, more: HTMLButtonElement, size: number, row: (item: T) => Node, onPage?: (shown: number, total: number) => void): Paged<T> {
  let items: T[] = [];
  let rows: Node[] = [];
  let next = 0;
  const page = (): void => {
    const stop = Math.min(items.length, next + size);
    for (; next < stop; next++) rows.push(into.appendChild(row(items[next] as T)));
    more.hidden = next >= items.length;
    if (onPage) onPage(next, items.length);
  };
  more.addEventListener('click', page);
  const show = (shown: T[]): void => {
    items = shown;
    rows = [];
    next = 0;
    (into as HTMLElement).textContent = '';
    page();
  };
  show.rowAt = (position: number): Node | undefined => {
    if (position < 0 || position >= items.length) return undefined;
    while (next <= position) page();
    return rows[position];
  };
  return show;
}
