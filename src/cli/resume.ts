import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { RunProvenance } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { readRawTrials } from '../report/raw-trials.js';
import type { PriorTrials } from '../runner/loop/prior-trials.js';
import { resumedPrior, retryPrior } from '../runner/resume/kept-trials.js';
import { readPlanRecord, readRecordedCases, resumableRuns, runFolder } from '../runner/resume/resume-folder.js';
import { PLAN_FILE, planChange } from '../runner/resume/resume-plan.js';
import type { PlannedCase } from '../suite/plan.js';
import { loadRecorded } from './baseline-file.js';

/** `run --resume [run-id]`, `run --retry-errors <results.json>`. */
export interface ResumeFlags {
  resume?: string | true;
  retryErrors?: string;
}

/** The trials a run keeps from a recording, and the line that says what it kept and what it runs. */
export interface KeptTrials {
  prior: PriorTrials;
  line: string;
  /** The run folder or results file kept from, as the results document records it. */
  provenance: RunProvenance;
}

/**
 * What `--resume` or `--retry-errors` keeps, read and checked before any target runs: a recording
 * whose plan or case fingerprints differ from this run's is bad input (exit 2) naming the file, the
 * flag and the first case that changed. Undefined when neither flag was given.
 */
export async function keptTrials(flags: ResumeFlags, cases: readonly PlannedCase[], outputDir: string, cwd: string): Promise<KeptTrials | undefined> {
  if (flags.resume !== undefined && flags.retryErrors !== undefined) throw new UserError('--resume and --retry-errors do not go together: give one');
  if (flags.resume !== undefined) return resumed(flags.resume, cases, outputDir, cwd);
  if (flags.retryErrors !== undefined) return retried(flags.retryErrors, cases, outputDir, cwd);
  return undefined;
}

/** A run folder's name: no path separator, no `..`. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

async function resumed(id: string | true, cases: readonly PlannedCase[], outputDir: string, cwd: string): Promise<KeptTrials> {
  const shown = (path: string) => relative(cwd, path) || path;
  const runId = id === true ? (await resumableRuns(outputDir))[0] : id;
  if (runId === undefined)
    throw new UserError(`no run to resume: ${shown(join(outputDir, 'runs'))} holds no run folder with a ${PLAN_FILE} (every run records one unless \`results: false\` or --no-results)`, {
      field: '--resume',
    });
  // `run --resume evals/x.eval.yaml` hands the path to --resume, whose run id is optional.
  if (!RUN_ID.test(runId) || /\.(ya?ml|[cm]?[jt]s)$/.test(runId))
    throw new UserError(`"${runId}" is not a run id (a folder name under ${shown(join(outputDir, 'runs'))}): give eval paths before --resume`, { field: '--resume' });
  const folder = runFolder(outputDir, runId);
  if (!existsSync(folder)) throw new UserError(`no run folder ${shown(folder)} (\`ls ${shown(join(outputDir, 'runs'))}\` lists the runs kept)`, { field: '--resume' });
  const plan = await readPlanRecord(folder);
  const planFile = shown(join(folder, PLAN_FILE));
  if (!plan)
    throw new UserError(`the run folder holds no readable ${PLAN_FILE}: a run that wrote no results file (\`results: false\`, --no-results), or one older than --resume, cannot be resumed`, {
      file: planFile,
      field: '--resume',
    });
  const change = planChange(plan.cases, cases);
  if (change) {
    throw new UserError(`the plan changed since run ${runId}: ${change}. Resume with the paths and flags it ran with (${plan.argv.join(' ') || 'none'}), or run afresh`, {
      file: planFile,
      field: '--resume',
    });
  }
  const recorded = await readRecordedCases(folder);
  const prior = resumedPrior(recorded, await readRawTrials(outputDir, runId));
  return { prior, line: `resuming run ${runId}: ${keptLine(prior, cases)}`, provenance: { resumedFrom: runId } };
}

async function retried(file: string, cases: readonly PlannedCase[], outputDir: string, cwd: string): Promise<KeptTrials> {
  const path = resolve(cwd, file);
  const recorded = await loadRecorded(path, cwd, '--retry-errors', file);
  const change = planChange(
    recorded.cases.map((r) => ({ key: caseKey(r), planned: r.planned, ...(r.fingerprint !== undefined ? { fingerprint: r.fingerprint } : {}) })),
    cases,
  );
  if (change)
    throw new UserError(`the plan changed since that run: ${change}. Retry with the paths and flags it ran with, or run afresh`, { file: relative(cwd, path) || path, field: '--retry-errors' });
  const plan = retryPrior(recorded.cases, await readRawTrials(outputDir, recorded.run.id));
  const errors = plan.targetErrors + plan.judgeErrors;
  const line =
    errors === 0
      ? `retrying no trial: none in ${file} ended in an error (every trial is kept)`
      : `retrying ${errors} trial${errors === 1 ? '' : 's'} that ended in an error (${plan.targetErrors} target, ${plan.judgeErrors} judge) in ${plan.cases} case${plan.cases === 1 ? '' : 's'}; ${keptLine(plan.prior, cases)}`;
  return { prior: plan.prior, line, provenance: { retriedFrom: relative(cwd, path) || path } };
}

/** How many trials are kept, and how many the run may still run (early stop may skip some). */
function keptLine(prior: PriorTrials, cases: readonly PlannedCase[]): string {
  let kept = 0;
  let open = 0;
  for (const c of cases) {
    const p = prior.get(c.key);
    kept += p?.trials.size ?? 0;
    if (!p?.notRunReason) open += c.repeat - (p?.trials.size ?? 0);
  }
  return `${kept} trial${kept === 1 ? '' : 's'} kept, ${open === 0 ? 'none' : `up to ${open}`} to run`;
}
