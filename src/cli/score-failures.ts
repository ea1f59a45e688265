import { basename, relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { terminalSafe } from '../report/sanitize.js';
import type { ScoredFrom } from '../core/results-schema.js';
import { checkYamlEvalFileName, refuseExistingEvalFile, writeNewEvalFile } from './written-eval-file.js';
import { savedFailureCases, savedFailuresText, type FailedTrace } from '../suite/saved-failures.js';
import type { ScorePlan } from '../suite/score-plan.js';
import type { Scoring } from '../suite/load-score-file.js';

/** A suite name: no spaces, `*` or `?` (matched by --filter globs). */
const NAME = /^[^\s*?]+$/;

/**
 * `--save-failures <file>` checked before anything is scored: a YAML eval file (so `list` and `run`
 * load it) that does not exist yet (saved cases are meant to be edited: one is never replaced).
 * Returns the absolute path.
 */
export async function checkSaveFailures(file: string, cwd: string): Promise<string> {
  const path = resolve(cwd, file);
  const shown = relative(cwd, path) || path;
  checkYamlEvalFileName(path, shown, '--save-failures');
  if (!NAME.test(suiteOf(path))) throw new UserError('the file name makes the suite name, which has no spaces, "*" or "?"', { file: shown, field: '--save-failures' });
  await refuseExistingEvalFile(path, shown, '--save-failures', 'saved cases');
  return path;
}

const suiteOf = (path: string) => basename(path).replace(/\.eval\.ya?ml$/, '');

/**
 * Writes the failed traces as eval cases (one per trace, with the assertions of each scoring it
 * failed) to `path`: through a temporary file linked into place, so the file appears whole and one
 * made meanwhile is still not replaced. No failure, no file. Returns the line to print.
 */
export async function saveFailures(path: string, failedKeys: readonly string[], plan: ScorePlan, opts: { target: string; scoredFrom: ScoredFrom; cwd: string }): Promise<string> {
  const shown = relative(opts.cwd, path) || path;
  const byTrace = new Map<string, FailedTrace & { scorings: Scoring[] }>();
  for (const key of failedKeys) {
    const { trace, scoring } = plan.scored.get(key)!;
    const at = byTrace.get(trace.source) ?? { trace, scorings: [] };
    at.scorings.push(scoring);
    byTrace.set(trace.source, at);
  }
  // In the order the traces were read, whatever order their judges answered in.
  const order = new Map([...plan.scored.values()].map(({ trace }, i) => [trace.source, i]));
  const failed = [...byTrace.values()].sort((a, b) => order.get(a.trace.source)! - order.get(b.trace.source)!);
  if (failed.length === 0) return `--save-failures: no trace failed, so ${shown} was not written`;
  const { cases, leftOut, unsaved } = savedFailureCases(failed);
  const ids = (list: readonly string[]) => terminalSafe(list.slice(0, 5).join(', ') + (list.length > 5 ? ', ...' : ''));
  // A failed trace whose scorings assert only in TS code (custom predicates, a suite's `check`): no case that would load.
  const onlyCode = `failed only TS predicates or a suite's check(t), which a YAML file cannot hold`;
  if (cases.length === 0) return `--save-failures: every failed trace (${ids(unsaved)}) ${onlyCode}, so ${shown} was not written`;
  const text = await savedFailuresText(cases, { suite: suiteOf(path), target: opts.target, traces: opts.scoredFrom.files, scoring: opts.scoredFrom.scoring });
  await writeNewEvalFile(path, shown, '--save-failures', text, 'the traces were scored');
  const notes = [
    ...(leftOut ? [`${leftOut} TS predicate${leftOut === 1 ? '' : 's'} left out: a YAML file cannot hold one`] : []),
    ...(unsaved.length ? [`${unsaved.length} trace${unsaved.length === 1 ? '' : 's'} not saved (${ids(unsaved)}): ${unsaved.length === 1 ? 'it' : 'they'} ${onlyCode}`] : []),
  ];
  const note = notes.length ? ` (${notes.join('; ')})` : '';
  return `wrote ${shown}: ${cases.length} case${cases.length === 1 ? '' : 's'} from the failed traces, against target "${opts.target}"${note}; \`agent-evals list ${shown}\` shows them`;
}
