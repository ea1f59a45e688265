// The drafts page's nodes: one card per draft (what it asks, its reference, metadata and assertions,
// with Accept, Edit and Reject) and its edit form. Every text goes in by textContent (dom.ts), so
// generated text stays text.
import { add, el } from './dom';
import type { DraftItem } from '../src/core/draft-review';

/** What a card's buttons do. */
export interface CardActions {
  accept(item: DraftItem): void;
  reject(item: DraftItem): void;
  edit(item: DraftItem): void;
}

/** What the edit form hands back: the boxes' texts (input only when the case's input is one text). */
export interface EditedFields {
  input?: string;
  reference: string;
  assert: string;
}

/** Fills `card` with one draft as it reads; its `.error` line shows a refusal. */
export function draftCard(card: HTMLElement, item: DraftItem, act: CardActions, error = ''): void {
  card.textContent = '';
  card.className = 'draft';
  card.dataset.id = item.id;
  head(card, item);
  block(card, item.input !== undefined ? 'Input' : 'Asks', item.input !== undefined ? item.input : item.asked, 'input');
  block(card, 'Reference (expected answer)', item.reference, 'reference');
  block(card, 'Assertions', item.assert || '(none)', 'assert');
  errorLine(card, error);
  const bar = add(card, el('div', 'actions'));
  button(bar, 'Accept', 'accept', () => act.accept(item));
  button(bar, 'Edit', 'edit', () => act.edit(item));
  button(bar, 'Reject', 'reject', () => act.reject(item));
}

/** Fills `card` with the edit form of one draft: its input (when one text), reference and assertions as YAML. */
export function editForm(card: HTMLElement, item: DraftItem, done: { save(fields: EditedFields): void; cancel(): void }, error = '', kept?: EditedFields): void {
  card.textContent = '';
  card.className = 'draft editing';
  card.dataset.id = item.id;
  head(card, item);
  const form = add(card, el('div', 'edit'));
  const box = (label: string, name: string, value: string): HTMLTextAreaElement => {
    add(form, el('label', null, label));
    const t = add(form, el('textarea'));
    t.name = name;
    t.value = value;
    t.rows = Math.min(16, Math.max(3, value.split('\n').length + 1));
    return t;
  };
  const input = item.input !== undefined ? box('Input', 'input', kept?.input ?? item.input) : undefined;
  if (!input) block(form, 'Asks (not one text: edit it in the file)', item.asked, 'input');
  const reference = box('Reference (empty: none)', 'reference', kept?.reference ?? item.reference ?? '');
  const assert = box('Assertions (YAML list)', 'assert', kept?.assert ?? item.assert);
  errorLine(card, error);
  const bar = add(card, el('div', 'actions'));
  button(bar, 'Save', 'save', () => done.save({ ...(input ? { input: input.value } : {}), reference: reference.value, assert: assert.value }));
  button(bar, 'Cancel', 'cancel', () => done.cancel());
}

function head(card: HTMLElement, item: DraftItem): void {
  const h = add(card, el('div', 'draft-head'));
  add(h, el('span', 'key', item.id));
  add(h, el('span', 'tag', 'line ' + item.line));
  if (item.intent) add(h, el('span', 'tag intent', 'intent: ' + item.intent));
  if (item.kind) add(h, el('span', 'tag kind', 'kind: ' + item.kind));
  if (item.generatedBy) add(h, el('span', 'tag', 'by ' + item.generatedBy));
}

function errorLine(card: HTMLElement, error: string): void {
  const e = add(card, el('div', 'error', error));
  e.hidden = !error;
}

function button(bar: HTMLElement, text: string, cls: string, onClick: () => void): void {
  const b = add(bar, el('button', cls, text));
  b.type = 'button';
  b.addEventListener('click', onClick);
}

function block(parent: HTMLElement, name: string, text: string | undefined, cls: string): void {
  if (text === undefined || text === '') return;
  const box = add(parent, el('div', 'block ' + cls));
  add(box, el('div', 'label', name));
  add(box, el('pre', null, text));
}
