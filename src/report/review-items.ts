import type { CaseResult, Results, TrialResult } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';

/**
 * The top of calibrate's 10-point scale: a review scores 1..10 (`calibrate --scale 10`); the page's
 * digit keys 1-9 give 1-9 and 0 gives 10.
 */
export const REVIEW_SCALE = 10;

/** One trial as the review page shows it (every text by textContent only) and the labels file names it. */
export interface ReviewItem {
  /** `<case key>#<trial>` (1-based trial): the labels row's id, which a fake judge's fixture matches as `calibration/<id>`. */
  id: string;
  key: string;
  trial: number;
  /** What the case asked, as one text: its input, its history (`role: text` lines) or its turns. */
  input?: string;
  reference?: string;
  instructions?: string;
  /** The trial's reply: what a human labels, and the row's `output`. */
  output: string;
  /** The run's own verdict and score, shown beside the controls. */
  verdict: string;
  score: number;
  /** The run's assertions, one line each (`status name: message`). */
  checks: string[];
}

/** A human's label of one trial; a trial with neither field is unlabelled. */
export interface ReviewLabel {
  humanVerdict?: 'pass' | 'fail';
  humanScore?: number;
}

/** The review page's data block, as review-page.ts writes it and the page's script (page/) reads it. */
export interface ReviewPageData {
  items: ReviewItem[];
  labels: Record<string, ReviewLabel>;
  /** The top of the score scale (REVIEW_SCALE: digits 1-9 score 1-9, 0 scores 10). */
  scale: number;
  /** The labels file, as the terminal names it. */
  file: string;
}

/** A row of the labels file (calibrate's LabelRowSchema, JSONL). */
export interface ReviewRow extends ReviewLabel {
  id: string;
  output: string;
  input?: string;
  reference?: string;
  instructions?: string;
}

/** Every trial of the results, in the file's order. */
export function reviewItems(results: Pick<Results, 'cases'>): ReviewItem[] {
  return results.cases.flatMap((c) => c.trials.map((t) => reviewItem(c, t)));
}

function reviewItem(c: CaseResult, t: TrialResult): ReviewItem {
  const key = caseKey(c);
  const input = askedText(c);
  const instructions = t.trace.instructions;
  return {
    id: `${key}#${t.index + 1}`,
    key,
    trial: t.index + 1,
    ...(input !== undefined ? { input } : {}),
    ...(c.reference !== undefined ? { reference: c.reference } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    output: t.reply,
    verdict: t.verdict,
    score: t.score,
    checks: t.assertions.map((a) => `${a.status} ${a.name}${a.message ? `: ${a.message}` : ''}`),
  };
}

/** The case's question as one text, as a labels row's `input` holds it. */
function askedText(c: CaseResult): string | undefined {
  if (c.input !== undefined) return c.input;
  if (c.messages?.length) return c.messages.map((m) => `${m.role}: ${m.content}`).join('\n\n');
  if (c.turns?.length) return c.turns.map((t, n) => `turn ${n + 1}: ${t.input}`).join('\n\n');
  return undefined;
}

/** The labels row of a labelled trial, fields in a fixed order; undefined when the label is empty. */
export function labelRow(item: ReviewItem, label: ReviewLabel): ReviewRow | undefined {
  if (label.humanVerdict === undefined && label.humanScore === undefined) return undefined;
  return {
    id: item.id,
    ...(item.input !== undefined ? { input: item.input } : {}),
    ...(item.reference !== undefined ? { reference: item.reference } : {}),
    ...(item.instructions !== undefined ? { instructions: item.instructions } : {}),
    output: item.output,
    ...(label.humanVerdict !== undefined ? { humanVerdict: label.humanVerdict } : {}),
    ...(label.humanScore !== undefined ? { humanScore: label.humanScore } : {}),
  };
}
