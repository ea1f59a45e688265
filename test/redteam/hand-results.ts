import type { CaseResult, Results, TrialResult } from '../../src/core/results-schema.js';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { emptyUsage, type Usage } from '../../src/core/usage.js';

const usage = (calls = 0): Usage => ({ ...emptyUsage(), calls });

/** A trial: `failed` means the attack succeeded; `error` a trial that decided nothing; judgeCalls spent on it. */
export function trial(index: number, outcome: 'passed' | 'failed' | 'error' | 'interrupted', judgeCalls = 0): TrialResult {
  return {
    index,
    verdict: outcome === 'error' ? 'failed' : outcome,
    score: outcome === 'passed' ? 1 : 0,
    durationMs: 1,
    reply: '',
    usage: { target: usage(1), judge: usage(judgeCalls) },
    assertions: [],
    trace: {},
    ...(outcome === 'error' ? { error: 'target threw' } : {}),
    ...(outcome === 'interrupted' ? { interrupted: true } : {}),
  };
}

/** An attack case of the suite `redteam` with its tags, as the run records it. */
export function attackResult(id: string, plugin: string, target: string, trials: TrialResult[]): CaseResult {
  const failed = trials.some((t) => t.verdict === 'failed');
  return {
    suite: 'redteam',
    id,
    file: 'redteam.eval.yaml',
    line: 1,
    tags: ['redteam', `redteam:${plugin}`, `redteam-target:${target}`],
    verdict: failed ? 'failed' : 'passed',
    passed: trials.filter((t) => t.verdict === 'passed').length,
    required: trials.length,
    planned: trials.length,
    notRun: 0,
    score: { mean: 0, stddev: 0 },
    judgeScore: null,
    usage: { target: usage(trials.length), judge: usage() },
    trials,
  };
}

/** A results document holding these cases (checked against the results schema). */
export function resultsOf(cases: CaseResult[], spent: { target?: Usage; judge?: Usage; user?: Usage } = {}): Results {
  return ResultsSchema.parse({
    schemaVersion: 1,
    tool: { name: 'agent-evals', version: '0.0.0' },
    run: { id: 'r', startedAt: '2026-12-04T00:00:00Z', durationMs: 10, gitSha: null, argv: [], config: null, interrupted: false },
    summary: {
      cases: { total: cases.length, passed: 0, failed: 0, scored: 0, skipped: 0, flaky: 0 },
      trials: { planned: 0, run: 0, notRun: 0, passed: 0, judgeErrors: 0 },
      score: { mean: 0, stddev: 0 },
      usage: { target: spent.target ?? emptyUsage(), judge: spent.judge ?? emptyUsage(), ...(spent.user ? { user: spent.user } : {}), total: emptyUsage() },
      counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
      failures: [],
      warnings: [],
    },
    cases,
  });
}
