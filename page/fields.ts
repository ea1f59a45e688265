// Data values on the page, cut fields included. A field the writer cut (html-cut.ts) is an object
// holding the page's own cut key (a nonce the run could not know); it is shown collapsed, with its
// size and first characters, and a link to its whole text in the folder beside the page, built from
// the cut's number alone.
import { add, el } from './dom';
import { size } from './format';
import type { CutField } from './types';

/** A row of facts: a label and its value (left out when empty). */
export type Fact = [string, unknown];

export class Fields {
  constructor(
    private readonly cutKey: string,
    private readonly filesDir: string,
  ) {}

  /** The value as a cut field, or null. */
  cutOf(v: unknown): CutField | null {
    if (v === null || typeof v !== 'object' || !this.cutKey) return null;
    const c = v as CutField;
    return typeof c[this.cutKey] === 'number' ? c : null;
  }

  /** One line of text for a value: a cut field's preview, anything else as String does. */
  plain(v: unknown): string {
    const c = this.cutOf(v);
    return c ? c.preview + '\u2026' : String(v);
  }

  /** The text of a value; the cut fields met on the way are pushed to found (when given). */
  text(v: unknown, found?: CutField[]): string {
    const c = this.cutOf(v);
    if (c) {
      if (found) found.push(c);
      return this.plain(c);
    }
    if (typeof v === 'string') return v;
    if (v === undefined) return '';
    try {
      return JSON.stringify(
        v,
        (_, x: unknown) => {
          const k = this.cutOf(x);
          if (!k) return x;
          if (found) found.push(k);
          return this.plain(k);
        },
        2,
      );
    } catch {
      return String(v);
    }
  }

  /** A link to each cut field's whole text: our own file name, from the cut's number only. */
  links(parent: Node, cuts: CutField[]): void {
    cuts.forEach((c) => {
      const a = add(parent, el('a', 'full', 'Full text (' + size(c.chars) + ')'));
      a.setAttribute('href', encodeURIComponent(this.filesDir) + '/' + Math.floor(Number(c[this.cutKey])) + '.txt');
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener');
    });
  }

  /** A list of label/value rows; empty values are left out. */
  facts(parent: Node, rows: Fact[]): HTMLDListElement {
    const dl = add(parent, el('dl', 'facts'));
    rows.forEach((r) => {
      if (r[1] === undefined || r[1] === null || r[1] === '') return;
      add(dl, el('dt', null, r[0]));
      const dd = add(dl, el('dd', null, this.plain(r[1])));
      const c = this.cutOf(r[1]);
      if (c) this.links(dd, [c]);
    });
    return dl;
  }

  /** A labelled block of text (JSON for structured values); nothing when the text is empty. */
  block(parent: Node, label: string, value: unknown, cls?: string): void {
    const cuts: CutField[] = [];
    const t = this.text(value, cuts);
    if (t === '') return;
    const box = add(parent, el('div', 'block ' + (cls || '')));
    add(box, el('div', 'label', label));
    const first = cuts[0];
    if (!first) {
      add(box, el('pre', null, t));
      return;
    }
    // Cut: collapsed, with its size; the first characters on open, the whole text behind the link.
    const fold = add(box, el('details', 'cut'));
    add(fold, el('summary', 'cut-note', 'Cut: ' + cuts.map((c) => size(c.chars)).join(', ') + ' (first ' + size(first.preview.length) + ' on open)'));
    add(fold, el('pre', null, t));
    this.links(box, cuts);
  }
}
