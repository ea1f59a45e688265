import { FileReadError } from '../core/errors.js';
import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import { relative } from 'node:path';
import { CaseResultSchema, SCHEMA_VERSION, type CaseChangeKind, type CaseResult, type Comparison, type TrialResult } from '../core/results-schema.js';
import type { TracePolicy } from '../core/judge-port.js';
import { caseKey } from '../core/matrix.js';
import { digestTrial } from '../core/trace-digest.js';
import type { BaselineCaseView as CaseViewOf, BaselineView as ViewOf } from './baseline-types.js';

export type BaselineCaseView = CaseViewOf<TrialResult>;
export type BaselineView = ViewOf<TrialResult>;

/**
 * The report's "Before and after" section needs the baseline's replies, which the results document's
 * comparison does not hold (only counts and verdicts). The page's writers (the `html` reporter,
 * `agent-evals report`) read them from the baseline file itself when they write the page, and put them
 * beside the results in the page's data block, never in the results document: the results stay one
 * run's record, and a page made later from them reads the baseline anew (or says it is gone).
 *
 * Bounded: only the moved cases (regressed, improved, judge-changed, tools-changed), at most BASELINE_CASES of them,
 * and BASELINE_TRIALS trials each; every long text is cut by the page's FieldCutter like the run's own.
 */
export const BASELINE_CASES = 100;
export const BASELINE_TRIALS = 3;

/** The kinds of change the section shows, in its order: regressions first. */
export const MOVED_KINDS: readonly CaseChangeKind[] = ['regressed', 'improved', 'judge-changed', 'tools-changed'];

/** The comparison's moved cases, in the section's order (by kind, then as the comparison lists them). */
export function movedCases(comparison: Comparison): Comparison['cases'] {
  return MOVED_KINDS.flatMap((kind) => comparison.cases.filter((c) => c.kind === kind));
}

/**
 * The baseline's side of the comparison's moved cases, read from `path` (the resolved baseline file;
 * undefined when the writer was not told it); undefined when no case moved. The trace policy is the
 * page's: the baseline's tool data stays raw only when both it and this run were written under `full`.
 */
export async function readBaselineView(path: string | undefined, comparison: Comparison, policy: TracePolicy | undefined, cwd = process.cwd()): Promise<BaselineView | undefined> {
  const moved = movedCases(comparison);
  if (moved.length === 0) return undefined;
  const kept = moved.slice(0, BASELINE_CASES);
  const view: BaselineView = { file: comparison.baseline, cases: [], ...(moved.length > kept.length ? { omitted: moved.length - kept.length } : {}) };
  if (path === undefined) return { ...view, missing: 'the report was not told where the baseline file is' };
  const where = relative(cwd, path) || path;
  let doc: { schemaVersion?: unknown; run?: { id?: unknown; startedAt?: unknown; gitSha?: unknown; trace?: unknown }; cases?: unknown };
  try {
    doc = JSON.parse((await readRegularFile(path, TEXT_FILE_MAX_BYTES)).toString('utf8')) as typeof doc;
  } catch (e) {
    if (!(e instanceof FileReadError)) return { ...view, missing: `${where} is not JSON` };
    return { ...view, missing: e.problem === 'missing' ? `no file at ${where}` : `${where} ${e.message}` };
  }
  if (doc === null || typeof doc !== 'object' || doc.schemaVersion !== SCHEMA_VERSION || !Array.isArray(doc.cases))
    return { ...view, missing: `${where} is not a results file of schema version ${SCHEMA_VERSION}` };
  const run = doc.run ?? {};
  // A saved baseline is replaced by each --save-baseline: the file may now hold a later run.
  const compared = comparison.baseRun?.id;
  if (compared !== undefined && run.id !== compared) return { ...view, missing: `${where} now holds another run (${String(run.id)}), not the one compared (${compared})` };
  if (typeof run.id === 'string' && typeof run.startedAt === 'string') view.run = { id: run.id, startedAt: run.startedAt, gitSha: typeof run.gitSha === 'string' ? run.gitSha : null };
  const wanted = new Map(kept.map((c) => [c.key, c.kind]));
  const raw = policy === 'full' && run.trace === 'full';
  const found = new Map<string, BaselineCaseView>();
  for (const c of doc.cases as { suite?: unknown; id?: unknown }[]) {
    // The key first (cheap), so only the moved cases of a large baseline are checked whole.
    if (c === null || typeof c !== 'object' || typeof c.suite !== 'string' || typeof c.id !== 'string') continue;
    const kind = wanted.get(caseKey(c as CaseResult));
    if (kind === undefined) continue;
    const parsed = CaseResultSchema.safeParse(c);
    if (!parsed.success) continue;
    const key = caseKey(parsed.data);
    const trials = preferred(parsed.data, kind).slice(0, BASELINE_TRIALS);
    found.set(key, { key, trialsRun: parsed.data.trials.length, trials: raw ? trials : trials.map(digestTrial) });
  }
  view.cases = kept.flatMap((c) => found.get(c.key) ?? []);
  return view;
}

/**
 * The baseline's trials in the order that shows the move best: for a regression, its passing (then
 * best-scored) trials first, what the run lost; for an improvement, its failing ones; else as they ran.
 */
function preferred(c: CaseResult, kind: CaseChangeKind): TrialResult[] {
  if (kind !== 'regressed' && kind !== 'improved') return c.trials;
  const good = (t: TrialResult) => (t.verdict === 'passed' ? 1 : 0) + t.score / 2;
  const sign = kind === 'regressed' ? -1 : 1;
  return [...c.trials].sort((a, b) => sign * (good(a) - good(b)) || a.index - b.index);
}
