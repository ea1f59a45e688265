// The review page's data block (written by src/report/review-page.ts from review-items.ts): the
// page may import nothing outside src/report/page/, so this is its own view of that data.

/** One trial to label; every text is shown by textContent only. */
export interface ReviewItem {
  id: string;
  key: string;
  trial: number;
  input?: string;
  reference?: string;
  instructions?: string;
  output: string;
  verdict: string;
  score: number;
  checks: string[];
}

/** A human's label; a trial with neither field is unlabelled. */
export interface ReviewLabel {
  humanVerdict?: 'pass' | 'fail';
  humanScore?: number;
}

export interface ReviewData {
  items: ReviewItem[];
  labels: Record<string, ReviewLabel>;
  /** The top of the score scale (10: digits 1-9 score 1-9, 0 scores 10). */
  scale: number;
  /** The labels file, as the terminal names it. */
  file: string;
}
