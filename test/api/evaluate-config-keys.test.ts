/**
 * `.config({...})` takes the keys of evals.config.ts but those of a project: `targets`, `evals`,
 * `reporters` and `results` would be dropped unsaid by the run (a `reporters: ['junit']` writing no
 * file), so a JS caller, whom the type does not stop, gets a UserError naming the key when it is given.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, UserError, type EvalConfig } from 'agent-evals';

const base = () =>
  evaluate(() => 'shipped')
    .input('where?')
    .expect({ type: 'contains', value: 'shipped' });

describe('evaluate().config() given a key of a project', () => {
  it.each([
    ['reporters', { reporters: ['junit'] }, '.reporter(r)'],
    ['targets', { targets: { other: () => 'x' } }, 'evaluate(agent)'],
    ['evals', { evals: ['evals/**/*.eval.yaml'] }, 'this builder'],
    ['results', { results: false }, 'no results file'],
  ])('%s: throws a UserError naming the key and what to use', (key, config, hint) => {
    let thrown: unknown;
    try {
      base().config(config as unknown as EvalConfig);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).field).toBe(key);
    expect((thrown as Error).message).toContain(`evaluate().config(): ${key}: not taken by evaluate()`);
    expect((thrown as Error).message).toContain(hint);
  });

  it('names every such key at once, and the keys it takes still run', async () => {
    expect(() => base().config({ reporters: [], targets: {} } as unknown as EvalConfig)).toThrow(/reporters: .*\n.*targets: /s);
    const result = await base().config({ repeat: 2, concurrency: 1 }).run();
    expect(result.passed).toBe(true);
    expect(result.trials).toHaveLength(2);
  });
});
