import type { CaseResult, TrialResult } from '../../core/results-schema.js';
import type { PlannedCase } from '../../suite/plan.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { caseVerdict, completedTrials, isJudgeErrorTrial, meanStd, requiredPasses } from './verdict.js';
import { isFlaky, passRate } from './pass-rate.js';
import { caseFingerprint } from '../../suite/fingerprint.js';
import { caseJudgeFingerprint } from '../../judges/case-judge-fingerprint.js';
import { caseToolsFingerprint } from '../../targets/case-tools-fingerprint.js';
import { caseAsked } from './case-asked.js';
import { adaptiveOutcome } from './adaptive-trials.js';
import { caseJudgeNoise } from './judge-noise.js';
import { reducerOutcome, verdictTurnsOnOneTrial } from './reducer-outcome.js';

/** The case-level reduction of its trials: pure. */
export function caseResult(c: PlannedCase, trials: TrialResult[], notRunReason?: CaseResult['notRunReason']): CaseResult {
  const sorted = [...trials].sort((a, b) => a.index - b.index);
  // Interrupted trials are reported, but their scores say nothing about the target.
  const completed = completedTrials(sorted);
  // An adaptive case's N is the trials it used, not its `max`.
  const reduced = c.reducer ? reducerOutcome(c.reducer, completed.filter((t) => t.verdict === 'passed').length, completed.length, c.repeat) : undefined;
  const required = reduced?.required ?? requiredPasses(c.adaptive && completed.length > 0 ? completed.length : c.repeat, c.passRate);
  const judgeScores = completed.flatMap((t) => {
    const judged = t.assertions.filter((a) => a.judge && (a.status === 'passed' || a.status === 'failed'));
    return judged.length ? [judged.reduce((s, a) => s + a.score, 0) / judged.length] : [];
  });
  const notRun = c.repeat - sorted.length;
  const passed = sorted.filter((t) => t.verdict === 'passed').length;
  const judgeError = sorted.map(isJudgeErrorTrial);
  // N is the trials that ran to a verdict: interrupted and not-run ones say nothing about the agent.
  const rate = passRate(passed, completed.length);
  const judges = caseJudgeFingerprint(sorted);
  const tools = caseToolsFingerprint(sorted);
  const verdict = caseVerdict(
    sorted.map((t) => t.verdict),
    required,
  );
  const noise = caseJudgeNoise(completed);
  return {
    suite: c.suite,
    id: c.id,
    file: c.file,
    line: c.line,
    tags: c.tags,
    ...(c.matrix ? { matrix: { ...c.matrix } } : {}),
    // What the variant set, never the target config it built (its tools are functions).
    ...(c.variant ? { variant: recordedVariant(c.variant) } : {}),
    fingerprint: caseFingerprint(c),
    ...(judges ? { judgeFingerprint: judges } : {}),
    ...(tools ? { toolsFingerprint: tools } : {}),
    // Whole here; the reporter edge redacts the run's secrets, then cuts (case-asked.ts).
    ...caseAsked(c),
    ...(c.scoredTrace ? { scoredTrace: { ...c.scoredTrace } } : {}),
    verdict,
    passed,
    required,
    planned: c.repeat,
    notRun,
    ...(notRun > 0 && notRunReason ? { notRunReason } : {}),
    judgeErrors: judgeError.filter(Boolean).length,
    score: meanStd(completed.map((t) => t.score)),
    judgeScore: judgeScores.length ? meanStd(judgeScores) : null,
    ...(rate ? { passRate: rate } : {}),
    ...(reduced ? { reducer: reduced.reducer } : {}),
    ...(c.adaptive ? { adaptive: adaptiveOutcome({ adaptive: c.adaptive, passRate: c.passRate }, completed.filter((t) => t.verdict === 'passed').length, completed.length, notRunReason) } : {}),
    ...(noise ? { judgeNoise: noise } : {}),
    flaky: isFlaky(sorted.map((t, i) => ({ verdict: t.verdict, judgeError: judgeError[i]! }))) && (!reduced || verdictTurnsOnOneTrial(passed, required)),
    usage: {
      target: addUsage(emptyUsage(), ...sorted.map((t) => t.usage.target)),
      judge: addUsage(emptyUsage(), ...sorted.map((t) => t.usage.judge)),
      ...userUsage(sorted),
    },
    trials: sorted,
  };
}

/** The simulated user's spend over the trials, when any trial had one. */
function userUsage(trials: readonly TrialResult[]): { user?: Usage } {
  const used = trials.flatMap((t) => (t.usage.user ? [t.usage.user] : []));
  return used.length ? { user: addUsage(emptyUsage(), ...used) } : {};
}

function recordedVariant({ spec: _spec, ...variant }: NonNullable<PlannedCase['variant']>): NonNullable<CaseResult['variant']> {
  return { ...variant };
}
