import { caseTargetSpec } from '../../suite/target-variants.js';
import { UserError } from '../../core/errors.js';
import type { RejudgedFrom, Results } from '../../core/results-schema.js';
import { rawTrialsPath, readRawTrials } from '../../report/raw-trials.js';
import type { Reporter } from '../../report/reporter.js';
import { inPlanOrder } from '../../report/plan-order.js';
import { comparableCase, type ComparableCase } from '../../stats/compared-case.js';
import type { PlannedCase } from '../../suite/plan.js';
import { configuredInstructions } from '../../targets/model-target.js';
import { executeRun, type ExecuteOptions, type RunOutcome } from '../loop/index.js';
import { planRejudge, recordedNotRun, restoredTrial, type ReplayedCase } from './rejudge-plan.js';
import { replayTarget } from './replay-target.js';
import { replayedUserModel } from './replayed-user.js';

export interface RejudgeOptions extends Omit<ExecuteOptions, 'cases' | 'replay'> {
  /** The recorded results document, parsed. */
  recorded: Results;
  /** The file it was read from, as given: named in the new document (`run.rejudgedFrom.file`). */
  file: string;
  /** The current config's cases (as `run` plans them): the recording's cases are matched to these by key. */
  cases: PlannedCase[];
}

export interface RejudgeOutcome extends RunOutcome {
  /** Each re-judged case as a comparison reads it, in the recording's order. */
  cases: ComparableCase[];
  /** The re-judged run's own id, and what it re-judged (with the cases it could not). */
  runId: string;
  rejudgedFrom: RejudgedFrom;
}

/**
 * Re-grades a recorded run with the judges of `settings` without calling any target: the normal run
 * pipeline, with a replay of the recording in place of every target. Gates and TS checks run again on
 * the recorded output and trace, judged assertions are asked again (judge cache, `--judge-batch` and
 * `--max-cost` apply; the recorded target spend is kept in the trials but not counted again), and the
 * reporters get a new run, marked `rejudgedFrom`. Cases that cannot be re-judged are warned about and
 * listed there, not reported. Every recorded trial is re-judged (early stop off): the re-judged case
 * stands on the same trials as the recorded one.
 */
export async function rejudgeRecorded(opts: RejudgeOptions): Promise<RejudgeOutcome> {
  const { recorded, settings } = opts;
  const outputDir = settings.judging.outputDir;
  const raw = await readRawTrials(outputDir, recorded.run.id);
  const plan = planRejudge(recorded, opts.cases, raw, rawTrialsPath(outputDir, recorded.run.id));
  const rejudgedFrom: RejudgedFrom = { runId: recorded.run.id, startedAt: recorded.run.startedAt, file: opts.file, cannotRejudge: plan.cannotRejudge };

  if (plan.cases.length === 0) {
    const why = plan.cannotRejudge.map((x) => `\n  ${x.key}: ${x.message}`).join('');
    throw new UserError(`nothing to re-judge in ${opts.file}: ${recorded.cases.length === 0 ? 'it holds no case' : `no recorded case can be re-judged${why}`}`);
  }
  const replayOf = (c: PlannedCase): ReplayedCase => plan.replays.get(c.key)!;
  const instructions = new Map<string, string | undefined>();
  for (const c of plan.cases) {
    const spec = caseTargetSpec(c, settings.targets);
    if (typeof c.target !== 'string' || instructions.has(c.target) || !spec || typeof spec !== 'object' || !('model' in spec)) continue;
    instructions.set(c.target, await configuredInstructions(c.target, spec, settings));
  }
  const targets = new Map(plan.cases.map((c) => [c.key, replayTarget(c.targetName, replayOf(c).trials, typeof c.target === 'string' ? instructions.get(c.target) : undefined)]));

  const compared: Array<ComparableCase | undefined> = [];
  let runId = '';
  const collector: Reporter = {
    name: 'rejudge',
    onBegin: (info) => void (runId = info.runId),
    onCaseEnd: (result, c) => void (compared[c.index] = comparableCase(result)),
  };
  const outcome = await executeRun({
    ...opts,
    settings: { ...settings, earlyStop: false },
    cases: plan.cases,
    // Its cases end as their judges answer; they are reported in the recording's order.
    reporters: [...opts.reporters.map(inPlanOrder), collector],
    replay: {
      targetFor: (c) => targets.get(c.key)!,
      notRun: (c, index) => recordedNotRun(replayOf(c), index),
      restore: (c, trial) => restoredTrial(replayOf(c).trials.get(trial.index)!, trial),
      userModel: (c, index) => replayedUserModel(replayOf(c).trials.get(index)),
      from: rejudgedFrom,
      // The recording's MCP tool lists stay with it, so the re-judged file is still a tape.
      ...(recorded.run.mcpTools ? { mcpTools: recorded.run.mcpTools } : {}),
    },
  });
  return { ...outcome, cases: compared.filter((c) => c !== undefined), runId, rejudgedFrom };
}
