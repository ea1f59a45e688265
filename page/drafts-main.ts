/**
 * The drafts review's script (`agent-evals review <file.eval.yaml>`), entry point; bundled by
 * scripts/page-bundle.mjs as DRAFTS_SCRIPT.
 *
 * One card per draft case, each with Accept (the case loses its `draft: true`), Edit (input,
 * reference, assertions as YAML; it stays a draft) and Reject (the case is removed). Each action is
 * posted to the server the page came from (`POST draft`, relative to the page's tokened address; the
 * CSP allows no other connection), one at a time; the server rewrites the file and answers with the
 * drafts it now holds. A refused edit keeps the form open with the reason; the status's
 * data-pending is the number of posts not yet answered.
 */
import { add, el } from './dom';
import type { DraftAction, DraftItem, DraftOutcome, DraftPageData } from '../src/core/draft-review';
import { draftCard, editForm, type CardActions, type EditedFields } from './drafts-view';

const data = JSON.parse((document.getElementById('drafts') as HTMLElement).textContent || '{}') as DraftPageData;
const app = document.getElementById('app') as HTMLElement;

add(app, el('h1', null, 'agent-evals review: drafts'));
const progress = add(app, el('p', 'progress'));
const status = add(app, el('p', 'status'));
status.id = 'status';
const list = add(app, el('div', 'drafts'));

const cards = new Map<string, HTMLElement>();
const done = { accepted: 0, rejected: 0, edited: 0 };
let left = data.drafts.length;
let pending = 0;
let lastError = '';
let queue: Promise<void> = Promise.resolve();

const actions: CardActions = {
  accept: (item) => post({ action: 'accept', id: item.id }, item),
  reject: (item) => post({ action: 'reject', id: item.id }, item),
  edit: (item) => openEdit(item),
};

function openEdit(item: DraftItem, error = '', kept?: EditedFields): void {
  const card = cards.get(item.id);
  if (!card) return;
  editForm(
    card,
    item,
    {
      save: (fields) => post({ action: 'edit', id: item.id, ...fields }, item, fields),
      cancel: () => draftCard(card, item, actions),
    },
    error,
    kept,
  );
}

function render(): void {
  progress.textContent = left + ' draft' + (left === 1 ? '' : 's') + ' in ' + data.file + ' · ' + done.accepted + ' accepted · ' + done.edited + ' edited · ' + done.rejected + ' rejected';
  status.dataset.pending = String(pending);
  status.className = 'status' + (lastError ? ' error' : '');
  status.textContent = pending ? 'Saving…' : lastError ? 'Not saved: ' + lastError : 'All changes saved';
}

/**
 * Posts one action after those before it were answered. The answer lists the drafts the file now
 * holds: the acted-on card goes (accepted, rejected) or shows the draft as edited; a refusal is shown
 * on its card (an edit's form stays open with what was typed).
 */
function post(action: DraftAction, item: DraftItem, fields?: EditedFields): void {
  pending++;
  render();
  const body = JSON.stringify(action);
  queue = queue.then(() =>
    fetch('draft', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, cache: 'no-store', credentials: 'same-origin' })
      .then((res) => (res.ok ? res.json().then((outcome: DraftOutcome) => applied(action, outcome)) : res.text().then((t) => Promise.reject(new Error(res.status + ' ' + t.trim())))))
      .catch((err: Error) => {
        lastError = err.message || String(err);
        if (action.action === 'edit') openEdit(item, lastError, fields);
        else {
          const card = cards.get(item.id);
          if (card) draftCard(card, item, actions, lastError);
        }
      })
      .then(() => {
        pending--;
        render();
      }),
  );
}

function applied(action: DraftAction, outcome: DraftOutcome): void {
  if (!outcome.ok) return;
  lastError = '';
  left = outcome.drafts.length;
  const card = cards.get(action.id);
  const now = outcome.drafts.find((d) => d.id === action.id);
  if (action.action === 'edit') done.edited++;
  else if (action.action === 'accept') done.accepted++;
  else done.rejected++;
  if (card && now) draftCard(card, now, actions);
  else if (card) {
    card.remove();
    cards.delete(action.id);
  }
  if (!cards.size) empty();
}

function empty(): void {
  add(list, el('p', 'empty', 'No drafts left in ' + data.file + '.'));
}

for (const item of data.drafts) {
  const card = add(list, el('section', 'draft'));
  cards.set(item.id, card);
  draftCard(card, item, actions);
}
if (!data.drafts.length) empty();
render();
