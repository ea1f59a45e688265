/**
 * `run --estimate` counts the simulated user's model apart from target and judge (built CLI's `main`
 * in-process; needs dist/): its dollars (the recorded tokens re-priced with today's table), its calls
 * and tokens expected (the recorded mean per trial times the trials planned) and their bound, at most
 * `maxTurns` calls a trial; a recording with more calls than today's `maxTurns` is scaled down to it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { writeProject } from '../support/temp-project.js';
import { caseResult } from '../support/case-result.js';
import { estimateCost, estimatedUsd } from '../../src/runner/estimate/estimate.js';
import type { TrialResult } from '../../src/core/results-schema.js';
import { emptyUsage, type Usage } from '../../src/core/usage.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const config = (pricing = '') => `export default { outputDir: '.out', judge: 'fake', targets: { desk: (input) => 'Booked: ' + input }, ${pricing} };\n`;
const evalFile = (url: string, maxTurns: number) => `suite: booking
target: desk
repeat: 2
cases:
  - id: friday
    simulatedUser:
      goal: Book a table for two on Friday.
      model: { provider: openai, model: gpt-4.1-mini, baseURL: "${url}" }
      maxTurns: ${maxTurns}
    assert: [{ type: contains, value: Booked }]
`;

describe('run --estimate with a simulated user', () => {
  it('prices the user model apart, says its calls and tokens and bounds them by maxTurns per trial', async () => {
    // Each trial: two messages, then done: 3 user-model calls of 1,000 + 100 tokens (gpt-4.1-mini: $0.00056 each).
    fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ content: unknown }> }) => {
        const sent = Number(/You have sent (\d+) of/.exec(JSON.stringify(body.messages))![1]);
        return { json: sent < 2 ? { done: false, goalMet: false, message: `message ${sent + 1}` } : { done: true, goalMet: true, message: '' }, usage: { input: 1000, output: 100 } };
      },
    });
    const dir = writeProject({ 'evals.config.mjs': config(), 'evals/booking.eval.yaml': evalFile(fake.url, 4) });
    const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: undefined, ...env } });
    const run = await cli(['run', '--no-early-stop'], { OPENAI_API_KEY: 'test-key' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(fake.count).toBe(6);

    const res = await cli(['run', '--estimate']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake.count).toBe(6);
    const lines = res.stdout.split('\n');
    expect(lines[1]!.trim().split(/\s+/)).toEqual(['suite', 'cases', 'trials', 'target', 'judge', 'user', 'total']);
    // 2 trials x 3 calls x $0.00056.
    expect(lines[2]!.trim().split(/\s+/)).toEqual(['booking', '1', '2', '$0', '$0', '$0.00336', '$0.00336']);
    expect(res.stdout).toContain('  user model: 6 calls, 6,000 input and 600 output tokens expected (the recorded mean per trial); at most 8 calls (maxTurns per trial)\n');

    // Today's price table prices the recorded tokens: $1 per million each way is 2 x 3 x 1,100 tokens.
    writeFileSync(join(dir, 'evals.config.mjs'), config(`pricing: { 'openai:gpt-4.1-mini': { input: 1, output: 1 } }`));
    const repriced = await cli(['run', '--estimate']);
    expect(repriced.stdout.split('\n')[2]!.trim().split(/\s+/)).toEqual(['booking', '1', '2', '$0', '$0', '$0.0066', '$0.0066']);

    // maxTurns lowered to 2 since the recording: each trial is counted at 2 of its 3 calls, tokens and dollars in proportion.
    writeFileSync(join(dir, 'evals.config.mjs'), config());
    writeFileSync(join(dir, 'evals/booking.eval.yaml'), evalFile(fake.url, 2));
    const capped = await cli(['run', '--estimate']);
    expect(capped.stdout.split('\n')[2]!.trim().split(/\s+/)).toEqual(['booking', '1', '2', '$0', '$0', '$0.00224', '$0.00224']);
    expect(capped.stdout).toContain('  user model: 4 calls, 4,000 input and 400 output tokens expected (the recorded mean per trial); at most 4 calls (maxTurns per trial)\n');
    expect(fake.count).toBe(6);
  });
});

describe('estimateCost: the user role', () => {
  const trial = (user: Usage | undefined): TrialResult => ({
    index: 0,
    verdict: 'passed',
    score: 1,
    durationMs: 1,
    reply: 'ok',
    usage: { target: emptyUsage(), judge: emptyUsage(), ...(user ? { user } : {}) },
    assertions: [],
    trace: {},
  });

  it('a recording without user usage (no simulated user then) is unpriced, still bounded by maxTurns; a fake user model costs nothing', () => {
    const plan = (id: string, model: string | undefined) => ({ key: `s/${id}`, suite: 's', trials: 3, user: { model, maxTurns: 4 } });
    const e = estimateCost(
      [plan('old', 'openai:gpt-4.1-mini'), plan('fake', undefined)],
      [caseResult({ suite: 's', id: 'old', trials: [trial(undefined)] }), caseResult({ suite: 's', id: 'fake', trials: [trial({ ...emptyUsage(), calls: 2 })] })],
      {},
    );
    expect(e.total.user).toEqual({ usd: 0, unpriced: 1, calls: 6, inputTokens: 0, outputTokens: 0, maxCalls: 24 });
    expect(estimatedUsd(e)).toBe(0);
  });
});
