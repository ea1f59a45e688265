import type { Calibration } from '../judges/calibration-schema.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { PlannedCase } from '../suite/plan.js';
import { checkApiKeys } from './api-keys.js';
import { checkWireRefusals } from './wire-refusals.js';
import { checkUserFixtures } from './users/index.js';
import type { CalibrationOptions } from './calibrate/index.js';
import type { ExecuteOptions, RunOutcome, RunSettings } from './loop/index.js';
import { checkJudgesExist, checkRunJudgeRefs } from '../judges/judge-refs.js';
import type { RejudgedBaselineOutcome, RejudgeOptions, RejudgeOutcome } from './rejudge/index.js';
import type { ScoreOptions, ScoreOutcome } from './score/index.js';
import { runRedactor } from '../providers/run-redactor.js';

/**
 * What a run is started with beyond its settings and cases: the outputs, the interrupt and the
 * run's own marks. The front door supplies the rest (the redactor, the judge service).
 */
export type StartOptions = Omit<ExecuteOptions, 'settings' | 'cases' | 'redactor' | 'judges' | 'userFixtures'>;

/** A re-judge of a recorded run (`agent-evals rejudge`): its recording in place of the targets. */
export type RejudgeStart = Omit<RejudgeOptions, 'settings' | 'cases' | 'redactor' | 'judges' | 'userFixtures'>;

/** A score of recorded traces (`agent-evals score`): each trace in place of the target. */
export type ScoreStart = Omit<ScoreOptions, 'settings' | 'cases' | 'redactor' | 'judges' | 'userFixtures'>;

/**
 * Which run this is: `run` (targets called; `evaluate()` too), `rejudge` (a recording re-graded, no
 * target called: only the judges need keys), `score` (recorded traces graded, no target called either)
 * or `calibrate` (a labelled set judged: no case at all).
 */
export type RunKind = 'run' | 'rejudge' | 'score' | 'calibrate';

/** An opened run: checked, its secrets known; each way a run goes ends in one of these. */
export interface OpenedRun {
  /** The run's one redactor: what any entrance prints of the run passes through it too. */
  readonly redactor: SecretRedactor;
  /** Runs the cases: targets built, trials scheduled, judges asked, reporters told. */
  start(opts: StartOptions): Promise<RunOutcome>;
  /** Re-grades a recorded run with this run's judges (`agent-evals rejudge`). */
  rejudge(opts: RejudgeStart): Promise<RejudgeOutcome>;
  /** `--rejudge`: a baseline's recorded trials graded by this run's judges, reported nowhere. */
  rejudgeBaseline(opts: Omit<RejudgeStart, 'reporters'>): Promise<RejudgedBaselineOutcome>;
  /** Grades recorded traces with this run's judges (`agent-evals score`). */
  score(opts: ScoreStart): Promise<ScoreOutcome>;
  /** Judges a labelled set and measures the agreement (`agent-evals calibrate`). */
  calibrate(opts: Omit<CalibrationOptions, 'settings' | 'redactor'>): Promise<Calibration>;
}

/**
 * The one front door of every run (`run`, `evaluate()`, `rejudge`, `compare --rejudge`, `score`, `calibrate`):
 * given the settings (resolved once) and the planned cases, it checks what can be checked before any
 * output exists (the judge references, the settings the API would refuse, the API keys the run will need), makes the run's redactor and
 * hands back what starts the run; the judge service is built there, from the same settings and redactor.
 * The entrances check their outputs between opening and starting: a bad judge or a missing key is
 * found before anything is written.
 */
export function openRun(settings: RunSettings, cases: readonly PlannedCase[], kind: RunKind): OpenedRun {
  checkRunJudgeRefs(settings.judging, [...cases]);
  if (kind !== 'calibrate') checkJudgesExist(settings.judging, cases);
  // What the API would refuse on every call stops the run (a dry run too: it is the config's error); a re-judge calls no target.
  if (kind !== 'calibrate') checkWireRefusals(settings, cases, { targets: kind === 'run' });
  // A dry run calls no model; a re-judge calls no target (only the judges need their keys); a
  // calibration makes its one judge before the first row, where a missing key is bad input too.
  if (kind === 'rejudge' || kind === 'score') checkApiKeys({ ...settings, targets: {} }, [...cases], { users: false });
  else if (kind === 'run' && !settings.dryRun) checkApiKeys(settings, [...cases]);
  // A scripted user's fixtures are read in a dry run too (it scripts there as well), once: the run scripts from them.
  const userFixtures = kind === 'run' ? checkUserFixtures(settings.judging, cases) : undefined;
  const redactor = runRedactor(settings);
  // The judge service, loaded with the run that needs it (the CLI's start stays light).
  const withJudges = async (): Promise<ExecuteOptions['judges']> => {
    const { createJudgeService } = await import('../judges/create-judge-service.js');
    return (deps) => createJudgeService({ settings: settings.judging, ...deps, redactor });
  };
  const base = { settings, cases: [...cases], redactor };
  return {
    redactor,
    async start(opts) {
      const [{ executeRun }, judgeService] = await Promise.all([import('./loop/index.js'), withJudges()]);
      return executeRun({ ...opts, ...base, ...(userFixtures ? { userFixtures } : {}), judges: judgeService });
    },
    async rejudge(opts) {
      const [{ rejudgeRecorded }, judgeService] = await Promise.all([import('./rejudge/index.js'), withJudges()]);
      return rejudgeRecorded({ ...opts, ...base, judges: judgeService });
    },
    async rejudgeBaseline(opts) {
      const [{ rejudgeBaseline }, judgeService] = await Promise.all([import('./rejudge/index.js'), withJudges()]);
      return rejudgeBaseline({ ...opts, ...base, judges: judgeService });
    },
    async score(opts) {
      const [{ scoreTraces }, judgeService] = await Promise.all([import('./score/index.js'), withJudges()]);
      return scoreTraces({ ...opts, ...base, judges: judgeService });
    },
    async calibrate(opts) {
      const { calibrate } = await import('./calibrate/index.js');
      return calibrate({ ...opts, settings, redactor });
    },
  };
}
