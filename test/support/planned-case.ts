import { DEFAULTS } from '../../src/config/defaults.js';
import type { PlannedCase } from '../../src/suite/plan.js';

/** A planned case for in-process tests; `over` wins, the key follows suite and id. */
export function makePlannedCase(over: Partial<PlannedCase>, defaults: { suite: string; file: string; input: string }): PlannedCase {
  const input = over.input ?? defaults.input;
  const suite = over.suite ?? defaults.suite;
  return {
    index: 0,
    key: `${suite}/${over.id ?? 'case'}`,
    suite,
    id: 'case',
    file: defaults.file,
    line: 1,
    tags: [],
    target: 'agent',
    targetName: 'agent',
    repeat: 1,
    passRate: 1,
    timeoutMs: 10_000,
    judge: undefined,
    judgeDefaults: { severity: DEFAULTS.judgeSeverity, threshold: DEFAULTS.judgeThreshold },
    input,
    messages: [{ role: 'user', content: input }],
    turns: undefined,
    reference: undefined,
    assertions: [],
    check: undefined,
    ...over,
  };
}
