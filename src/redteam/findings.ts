import { caseKey } from '../core/matrix.js';
import type { Results } from '../core/results-schema.js';
import { attackYamlText, readAttackYaml } from './attack-yaml.js';
import { attackSucceeded } from './summary.js';

/** The findings' suite name: its cases keep their attack ids, so `redteam-findings/<target>/<plugin>/<attack>`. */
export const FINDINGS_SUITE = 'redteam-findings';

/**
 * The successful attacks as an ordinary eval file (YAML text) that `run` replays: each case as the
 * attack suite had it (input or turns, the injected tool results, the detector as its assertions), so
 * it fails while the hole is open and passes once it is fixed. '' when no attack succeeded.
 */
export function findingsSuite(results: Results, attackYaml: string): string {
  const doc = readAttackYaml(attackYaml);
  const found = new Set(results.cases.filter((c) => c.suite === doc.suite && c.trials.some(attackSucceeded)).map((c) => caseKey(c)));
  const cases = doc.cases.filter((c) => found.has(caseKey({ suite: doc.suite, id: c.id })));
  if (!cases.length) return '';
  const header =
    'Red-team findings saved by `agent-evals redteam --save`: each case is an attack that succeeded.\nIt fails while the agent is still vulnerable and passes once the hole is fixed; keep it in CI.';
  return attackYamlText({ suite: FINDINGS_SUITE, description: 'Attacks that succeeded against the agent', target: doc.target, cases }, header);
}
