/**
 * What the agent did, on the terminal, through the built CLI (in-process): `-v` prints a failed
 * trial's reply (cut, with its length) and its tool calls with arguments and results, a secret
 * value of the environment redacted and the reply's terminal escapes made visible; a `calledTool`
 * miss names the calls made, their arguments as digest shapes under the default `trace: safe` (no
 * value in any output) and in clear, redacted, under `trace: full`; a sharded run's header names its part.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { isDigest } from '../../src/core/digest.js';

afterAll(removeTempDirs);

/** The support service's key: the config reads it, and the agent passes it on as a tool argument. */
const KEY = 'sk-support-7f3a9c1e5b2d8f4a6c0e';
/** A reply longer than the terminal shows, opening with an escape that would clear the screen. */
const REPLY = `\x1b[2J\x1b[31mI could not find order A2. ${'Please check the number and try again. '.repeat(20)}`;

const config = (trace = '') => `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',${trace}
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The outputs (stdout, stderr, every file of the project) that hold the key or a start of it. */
function secretLeaks(dir: string, r: { stdout: string; stderr: string }): string[] {
  return [r.stdout, r.stderr, ...filesUnder(dir).map((f) => readFileSync(f, 'utf8'))].filter((t) => t.includes(KEY) || t.includes(KEY.slice(0, 12)));
}

async function run(args: string[], trace?: 'full') {
  const dir = writeProject({ 'evals.config.mjs': config(trace ? `\n  trace: '${trace}',` : ''), 'evals/support.eval.yaml': EVAL });
  const r = await runCliInProcess(['run', '--json', 'results.json', ...args], { cwd: dir, env: { SUPPORT_API_KEY: KEY } });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  return { dir, r };
}

describe('run -v on a failed trial', () => {
  it('prints its reply, cut with its length, and its tool calls with arguments and results; the secret argument redacted, escapes made visible', async () => {
    const { dir, r } = await run(['-v']);
    const chars = [...REPLY].length;
    expect(r.stdout).toContain(`reply (${chars.toLocaleString('en-US')} chars): \\x1b[2J\\x1b[31mI could not find order A2. Please check`);
    // Cut: one line of a few hundred characters, not the whole reply.
    const replyLine = r.stdout.split('\n').find((l) => l.includes(' chars): '))!;
    expect(replyLine).toMatch(/…$/);
    expect(replyLine.length).toBeLessThan(400);
    expect(r.stdout).toContain('tool lookup_order {"orderId":"A2","apiKey":"[redacted]"} → {"status":"not found"}');
    expect(r.stdout).toContain('tool escalate {"reason":"missing order"} → error: "queue closed"');
    // The calledTool miss names the call it did not count, its arguments as their digest's shape.
    const shape = `{"orderId":"<string:2>","apiKey":"<string:${KEY.length}>"}`;
    expect(r.stdout).toContain(`calledTool lookup_order with {"orderId":"A1"}: called 0 times (expected at least 1); 1 other call with different args: ${shape}`);
    expect(r.stdout).not.toMatch(/\x1b\[2J/);

    // Under the default trace policy the artifacts keep tool data as digests, and the assertion's
    // message names the arguments only by shape: no value the agent passed. The secret is in no output.
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.run.trace).toBe('safe');
    const [lookup] = results.cases[0]!.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(isDigest(lookup!.args) && isDigest(lookup!.result)).toBe(true);
    const message = results.cases[0]!.trials[0]!.assertions.find((a) => a.kind === 'calledTool')!.message;
    expect(message).toContain(`1 other call with different args: ${shape}`);
    expect(message).not.toContain('"A2"');
    expect(message).not.toContain('[redacted]');
    expect(secretLeaks(dir, r)).toEqual([]);
  });

  it('under trace: full, the miss names the arguments in clear, the secret redacted in every output', async () => {
    const { dir, r } = await run([], 'full');
    const missed = 'calledTool lookup_order with {"orderId":"A1"}: called 0 times (expected at least 1); 1 other call with different args: {"orderId":"A2","apiKey":"[redacted]"}';
    expect(r.stdout).toContain(missed);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.run.trace).toBe('full');
    expect(results.cases[0]!.trials[0]!.assertions.find((a) => a.kind === 'calledTool')!.message).toBe(missed);
    expect(secretLeaks(dir, r)).toEqual([]);
  });

  it('without -v prints neither the reply nor the tool calls', async () => {
    const { r } = await run([]);
    expect(r.stdout).toContain('calledTool lookup_order with {"orderId":"A1"}');
    expect(r.stdout).not.toMatch(/reply \(\d[\d,]* chars\):/);
    expect(r.stdout).not.toContain('tool lookup_order');
    expect(r.stdout).not.toContain(KEY);
  });
});

describe('a sharded run', () => {
  it('names its part in the header', async () => {
    const { r } = await run(['--shard', '1/2']);
    expect(r.stdout.split('\n')[0]).toMatch(/^agent-evals · shard 1\/2 · 1 case, 1 trial · /);
  });
});
