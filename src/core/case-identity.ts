import type { MatrixValues } from './matrix.js';

/**
 * Who a case is, as the planner makes it and a reporter sees it: plain read-only data. The planned
 * case (suite/) adds what runs it; the reporters' view (report/) is exactly this.
 */
export interface CaseIdentity {
  readonly index: number;
  /** `suite/id`, unique in a run; what --filter matches. */
  readonly key: string;
  readonly suite: string;
  readonly id: string;
  readonly file: string;
  readonly line: number | null;
  readonly tags: readonly string[];
  readonly targetName: string;
  /** The matrix values the case runs with (`matrix:`, `--matrix`); part of `key`. */
  readonly matrix?: Readonly<MatrixValues>;
  readonly repeat: number;
}
