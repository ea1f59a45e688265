/**
 * The terminal's text through the built CLI (in-process): a sharded run's header names its part.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

/** The support service's key: the config reads it, and the agent passes it on as a tool argument. */
const KEY = 'sk-support-7f3a9c1e5b2d8f4a6c0e';
/** A reply longer than the terminal shows, opening with an escape that would clear the screen. */
const REPLY = `\x1b[2J\x1b[31mI could not find order A2. ${'Please check the number and try again. '.repeat(20)}`;

const CONFIG = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: {
    async support(input, ctx) {
      const apiKey = process.env.SUPPORT_API_KEY;
      await ctx.tool('lookup_order', { orderId: 'A2', apiKey }, async () => ({ status: 'not found' }));
      try {
        await ctx.tool('escalate', { reason: 'missing order' }, async () => { throw new Error('queue closed'); });
      } catch {}
      return ${JSON.stringify(REPLY)};
    },
  },
};
`;

const EVAL = `suite: support
target: support
cases:
  - id: order-status
    input: Where is order A1?
    assert:
      - { type: contains, value: shipped }
      - { type: calledTool, tool: lookup_order, args: { orderId: A1 } }
`;

async function run(args: string[]) {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
  const r = await runCliInProcess(['run', '--json', 'results.json', ...args], { cwd: dir, env: { SUPPORT_API_KEY: KEY } });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  return { dir, r };
}

describe('a sharded run', () => {
  it('names its part in the header', async () => {
    const { r } = await run(['--shard', '1/2']);
    expect(r.stdout.split('\n')[0]).toMatch(/^agent-evals · shard 1\/2 · 1 case, 1 trial · /);
  });
});
