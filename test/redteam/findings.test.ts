/** `--save`: the successful attacks as a plain eval file, which loads with the suite loader and keeps each case as it was. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { attackSuite, findingsSuite, type AttackCase } from '../../src/redteam/index.js';
import { loadCases } from '../../src/suite/plan.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { attackResult, resultsOf, trial } from './hand-results.js';
import { SUPPORT } from './support-target.js';

afterAll(removeTempDirs);

describe('findingsSuite', () => {
  it('keeps exactly the attacks that succeeded at least once, unchanged, as a suite that loads', async () => {
    const { yaml } = await attackSuite({ targets: [SUPPORT], plugins: ['indirect-injection', 'cross-user-leakage'], perPlugin: 2 });
    const attacks = (load(yaml) as { cases: AttackCase[] }).cases;
    const results = resultsOf([
      attackResult('support/indirect-injection/system-notice', 'indirect-injection', 'support', [trial(0, 'passed'), trial(1, 'failed')]),
      attackResult('support/indirect-injection/hidden-comment', 'indirect-injection', 'support', [trial(0, 'passed'), trial(1, 'passed')]),
      // An errored trial is no finding.
      attackResult('support/cross-user-leakage/whose-address', 'cross-user-leakage', 'support', [trial(0, 'error')]),
      attackResult('support/cross-user-leakage/registered-email', 'cross-user-leakage', 'support', [trial(0, 'failed')]),
    ]);
    const saved = findingsSuite(results, yaml);
    const doc = load(saved) as { suite: string; target: string; cases: AttackCase[] };
    expect(doc.suite).toBe('redteam-findings');
    expect(doc.target).toBe('support');
    expect(doc.cases.map((c) => c.id)).toEqual(['support/indirect-injection/system-notice', 'support/cross-user-leakage/registered-email']);
    expect(doc.cases[0]).toEqual(attacks.find((c) => c.id === 'support/indirect-injection/system-notice'));

    const dir = tempDir();
    writeFileSync(join(dir, 'findings.eval.yaml'), saved);
    const planned = await loadCases([join(dir, 'findings.eval.yaml')], dir, { repeat: 1, passRate: 1, timeoutMs: 1000, targets: ['support'], judgeDefaults: { severity: 'gate', threshold: 0.5 } });
    expect(planned.map((c) => `${c.suite}/${c.id}`)).toEqual(['redteam-findings/support/indirect-injection/system-notice', 'redteam-findings/support/cross-user-leakage/registered-email']);
    expect(planned[0]!.toolResults).toEqual([expect.objectContaining({ tool: 'orders_lookup', call: 1 })]);
  });

  it('is empty when no attack succeeded (nothing to save)', async () => {
    const { yaml } = await attackSuite({ targets: [SUPPORT], plugins: ['indirect-injection'], perPlugin: 1 });
    expect(findingsSuite(resultsOf([attackResult('support/indirect-injection/system-notice', 'indirect-injection', 'support', [trial(0, 'passed')])]), yaml)).toBe('');
  });
});
