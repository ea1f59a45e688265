/**
 * The review page's script (`agent-evals review`), entry point; bundled by scripts/page-bundle.mjs as
 * REVIEW_SCRIPT, like main.ts is for the report.
 *
 * One trial at a time, labelled from the keyboard (review-keys.ts) or the buttons: pass or fail and a
 * score. Each change is posted to the server the page came from (`POST label`, relative to the page's
 * tokened address; the CSP allows no other connection), one post at a time, so the file always ends
 * with the latest label; the status says when everything is saved (its data-pending is the number
 * of posts not yet answered). The page opens at the first unlabelled trial, so a review resumes
 * where it stopped.
 */
import { add, el } from './dom';
import { keyAction, type ReviewAction } from './review-keys';
import type { ReviewPageData, ReviewLabel } from '../src/report/review-items';
import { controls, legend, showLabel, trialView } from './review-view';

const data = JSON.parse((document.getElementById('review') as HTMLElement).textContent || '{}') as ReviewPageData;
const app = document.getElementById('app') as HTMLElement;
const items = data.items;
const labels: Record<string, ReviewLabel> = data.labels;
const isLabelled = (id: string): boolean => {
  const l = labels[id];
  return !!l && (l.humanVerdict !== undefined || l.humanScore !== undefined);
};

add(app, el('h1', null, 'agent-evals review'));
const progress = add(app, el('p', 'progress'));
const bar = controls(app, data.scale, act);
const view = add(app, el('section', 'trial'));
legend(app);

let at = items.findIndex((item) => !isLabelled(item.id));
if (at < 0) at = 0;
let pending = 0;
let failed = '';
let queue: Promise<void> = Promise.resolve();

function render(): void {
  const done = items.filter((item) => isLabelled(item.id)).length;
  progress.textContent = items.length ? 'Trial ' + (at + 1) + ' of ' + items.length + ' · ' + done + ' labelled · saved to ' + data.file : 'No trials in these results.';
  const item = items[at];
  if (!item) return;
  const label = labels[item.id] || {};
  trialView(view, item, label);
  showLabel(bar, label);
  status();
}

function status(): void {
  bar.status.dataset.pending = String(pending);
  bar.status.className = 'status' + (failed ? ' error' : '');
  bar.status.textContent = failed ? 'Not saved: ' + failed : pending ? 'Saving…' : 'All labels saved';
}

/** Posts one trial's whole label after the posts before it have been answered. */
function save(id: string): void {
  const label = labels[id] || {};
  const body = JSON.stringify({ id, humanVerdict: label.humanVerdict || null, humanScore: label.humanScore === undefined ? null : label.humanScore });
  pending++;
  status();
  queue = queue.then(() =>
    fetch('label', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, cache: 'no-store', credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text().then(() => undefined) : res.text().then((t) => Promise.reject(new Error(res.status + ' ' + t.trim())))))
      .catch((err: Error) => {
        failed = err.message || String(err);
      })
      .then(() => {
        pending--;
        status();
      }),
  );
}

function act(a: ReviewAction): void {
  const item = items[at];
  if (!item) return;
  if (a.kind === 'next') at = Math.min(items.length - 1, at + 1);
  else if (a.kind === 'previous') at = Math.max(0, at - 1);
  else if (a.kind === 'next-unlabelled') {
    for (let step = 1; step <= items.length; step++) {
      const i = (at + step) % items.length;
      const next = items[i];
      if (next && !isLabelled(next.id)) {
        at = i;
        break;
      }
    }
  } else {
    const label: ReviewLabel = { ...(labels[item.id] || {}) };
    if (a.kind === 'verdict') label.humanVerdict = a.verdict;
    else if (a.kind === 'score') label.humanScore = a.score;
    else {
      delete label.humanVerdict;
      delete label.humanScore;
    }
    labels[item.id] = label;
    save(item.id);
  }
  render();
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const a = keyAction(e.key, data.scale);
  if (!a) return;
  e.preventDefault();
  act(a);
});

render();
