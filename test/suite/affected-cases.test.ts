import { describe, expect, it } from 'vitest';
import { affectedCases, type ChangeContext } from '../../src/suite/affected-cases.js';
import { makePlannedCase } from '../support/planned-case.js';

const mk = (id: string, file: string, targetName: string) => makePlannedCase({ id, file, targetName, target: targetName }, { suite: 's', file, input: 'hi' });
const cases = [mk('a1', 'evals/a.eval.yaml', 'echo'), mk('a2', 'evals/a.eval.yaml', 'shout'), mk('b1', 'evals/b.eval.yaml', 'shout'), mk('c1', 'evals/c.eval.yaml', 'echo')];
const ctx: ChangeContext = { configFile: 'evals.config.mjs', commands: { echo: ['node', 'agents/echo.mjs'], shout: ['node', './agents/shout.mjs', '--loud'] } };
const ids = (changed: string[], c: ChangeContext = ctx) => affectedCases(cases, changed, c).map((x) => x.id);

describe('affectedCases', () => {
  it('re-runs only the cases of a changed eval file', () => {
    expect(ids(['evals/b.eval.yaml'])).toEqual(['b1']);
    expect(ids(['./evals/a.eval.yaml', 'evals/c.eval.yaml'])).toEqual(['a1', 'a2', 'c1']);
  });

  it('re-runs every case when the config file changed', () => {
    expect(ids(['evals.config.mjs'])).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('re-runs every case of a command target whose command names the changed file, whatever file the case is in', () => {
    expect(ids(['agents/shout.mjs'])).toEqual(['a2', 'b1']);
    expect(ids(['agents/echo.mjs', 'evals/b.eval.yaml'])).toEqual(['a1', 'b1', 'c1']);
  });

  it('re-runs everything for a source file no command names (it may be imported by the config or a TS eval)', () => {
    expect(ids(['lib/helper.ts'])).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(ids(['data/rows.jsonl'])).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('ignores files that are not source (docs, editor swap and backup files)', () => {
    expect(ids(['README.md', 'evals/.a.eval.yaml.swp', 'evals/gone.eval.yaml~'])).toEqual([]);
    expect(ids([])).toEqual([]);
  });

  it('without a config file, no changed path is taken for it', () => {
    expect(ids(['evals/c.eval.yaml'], { configFile: null, commands: {} })).toEqual(['c1']);
  });
});
