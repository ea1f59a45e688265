/** A case result for reporter and runner tests: a one-trial pass with nothing spent, and what the test changes. */
import type { CaseResult } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';

export function caseResult(overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    suite: 's',
    id: 'c',
    file: 'e.yaml',
    line: 1,
    tags: [],
    verdict: 'passed',
    passed: 1,
    required: 1,
    planned: 1,
    notRun: 0,
    score: { mean: 1, stddev: 0 },
    judgeScore: null,
    usage: { target: emptyUsage(), judge: emptyUsage() },
    trials: [],
    ...overrides,
  };
}
