// Building nodes: every text goes in by textContent, never innerHTML, so agent, tool and judge text
// stays text whatever it holds.

/** A new element with an optional class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: string | null): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** Appends child to parent and returns the child. */
export function add<T extends Node>(parent: Node, child: T): T {
  parent.appendChild(child);
  return child;
}

/** A horizontal bar filled to rate (0..1). */
export function bar(rate: number, cls?: string): HTMLSpanElement {
  const outer = el('span', 'bar ' + (cls || ''));
  const inner = add(outer, el('span', 'fill'));
  inner.style.width = Math.round(rate * 100) + '%';
  return outer;
}
