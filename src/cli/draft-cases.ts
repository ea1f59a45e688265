import { UserError } from '../core/errors.js';
import type { PlannedCase } from '../suite/plan.js';
import { terminalSafe } from '../report/sanitize.js';

/** A suite's cases parted into those a run executes and its drafts (`draft: true`), each in plan order. */
export function partDrafts(cases: PlannedCase[]): { runnable: PlannedCase[]; drafts: PlannedCase[] } {
  const runnable: PlannedCase[] = [];
  const drafts: PlannedCase[] = [];
  for (const c of cases) (c.draft ? drafts : runnable).push(c);
  return { runnable, drafts };
}

/** The eval files holding these drafts, each once, in plan order. */
export function draftFiles(drafts: readonly PlannedCase[]): string[] {
  return [...new Set(drafts.map((c) => c.file))];
}

/**
 * What a run says of the drafts it skipped: how many, and how to review or run them. One file is
 * named in the command; several are listed after it.
 */
export function draftsSkippedLine(drafts: readonly PlannedCase[]): string {
  const files = draftFiles(drafts);
  const review = files.length === 1 ? `agent-evals review ${files[0]}` : 'agent-evals review <file>';
  const where = files.length > 1 ? ` in ${files.join(', ')}` : '';
  return terminalSafe(`${drafts.length} draft case${drafts.length === 1 ? '' : 's'} skipped${where} (review them with \`${review}\`, or --include-drafts)`);
}

/**
 * A selection that holds only drafts would run nothing and look green: bad input (exit 2) that says
 * why and how to go on.
 */
export function onlyDraftsError(drafts: readonly PlannedCase[], what: string): UserError {
  const files = draftFiles(drafts);
  return new UserError(
    `${what} holds only draft cases: ${drafts.length} draft${drafts.length === 1 ? '' : 's'} (generated, not reviewed yet) and nothing else to run. Review them with \`agent-evals review ${files.length === 1 ? files[0] : '<file>'}\`, or run them as they are with --include-drafts`,
    files.length === 1 ? { file: files[0]! } : {},
  );
}
