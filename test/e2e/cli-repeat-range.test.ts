/**
 * `agent-evals run --repeat 3..20` through the built CLI (in-process): the range on the command line
 * makes every case adaptive. A target that always passes is decided well before 20 trials, one that
 * is right every other trial runs to 20 (its interval never clears a 0.5 threshold); the target is
 * called exactly as many times as the results say each case used. A range that is not one is exit 2.
 * Needs dist/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// `always` passes every trial; `alternate` passes the even-numbered ones: a coin flip without chance.
const CONFIG = `import { appendFileSync } from 'node:fs';
export default {
  targets: {
    agent(input, ctx) {
      appendFileSync(process.env.CALLS, input + '\\n');
      return input === 'always' || ctx.trial.trial % 2 === 0 ? 'ok' : 'no';
    },
  },
};
`;
const EVALS = `suite: s
target: agent
passRate: 0.5
cases:
  - { id: always, input: always, assert: [{ type: equals, value: ok }] }
  - { id: alternate, input: alternate, assert: [{ type: equals, value: ok }] }
`;

describe('run --repeat <min>..<max>', () => {
  it('runs each case round by round until its verdict is decided or max is reached', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': EVALS });
    const env = { CALLS: join(dir, 'calls.txt') };
    const r = await runCliInProcess(['run', '--repeat', '3..20'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    const results = readResults(join(dir, '.agent-evals', 'results.json'));
    const used = Object.fromEntries(results.cases.map((c) => [c.id, c.adaptive]));
    expect(used.always).toMatchObject({ min: 3, max: 20, stoppedBy: 'decided' });
    expect(used.always!.used).toBeLessThan(20);
    expect(used.alternate).toMatchObject({ min: 3, max: 20, used: 20, stoppedBy: 'max' });
    const calls = existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean) : [];
    expect(calls.filter((c) => c === 'always')).toHaveLength(used.always!.used);
    expect(calls.filter((c) => c === 'alternate')).toHaveLength(20);
  });

  it('a range whose min is above its max is bad input (exit 2) before any target runs', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': EVALS });
    const env = { CALLS: join(dir, 'calls.txt') };
    const r = await runCliInProcess(['run', '--repeat', '9..3'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--repeat/);
    expect(existsSync(env.CALLS)).toBe(false);
  });
});
