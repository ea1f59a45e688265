/**
 * A case's settings are merged in one place, the planner: the command line (--repeat, --timeout)
 * over the case over its file over the config. Selecting and running leave them as planned.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';
import { loadCases, type PlanDefaults } from '../../src/suite/plan.js';
import { selectCases } from '../../src/suite/select.js';

afterAll(removeTempDirs);

const defaults: PlanDefaults = { repeat: 1, passRate: 1, timeoutMs: 1000, targets: ['agent'], judgeDefaults: { severity: 'gate', threshold: 0.5 } };
const file = [
  'suite: s',
  'target: agent',
  'repeat: 2',
  'timeoutMs: 2000',
  'cases:',
  '  - { id: own, input: x, repeat: 3, timeoutMs: 3000, assert: [{ type: contains, value: x }] }',
  '  - { id: suite, input: y, assert: [{ type: contains, value: y }] }',
  '',
].join('\n');

async function plan(d: PlanDefaults) {
  const dir = writeProject({ 's.eval.yaml': file });
  return loadCases([join(dir, 's.eval.yaml')], dir, d);
}

describe("a case's settings", () => {
  it('come from the case, else its file, else the config', async () => {
    const cases = await plan(defaults);
    expect(cases.map((c) => [c.id, c.repeat, c.timeoutMs])).toEqual([
      ['own', 3, 3000],
      ['suite', 2, 2000],
    ]);
  });

  it('--repeat and --timeout go over all of them, in the planner', async () => {
    const cases = await plan({ ...defaults, override: { repeat: 5, timeoutMs: 150 } });
    expect(cases.map((c) => [c.id, c.repeat, c.timeoutMs])).toEqual([
      ['own', 5, 150],
      ['suite', 5, 150],
    ]);
  });

  it('selecting keeps each case as planned: the same objects, nothing merged again', async () => {
    const cases = await plan(defaults);
    const chosen = selectCases(cases, { filters: ['s/own'], tags: [], excludeTags: [] });
    expect(chosen).toEqual([cases[0]]);
    expect(chosen[0]).toBe(cases[0]);
  });
});
