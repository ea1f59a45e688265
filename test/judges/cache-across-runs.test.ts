/**
 * The judge cache over runs (in-process, as `agent-evals run` runs them): `--repeat 5` of a deterministic target makes one judge request
 * per distinct reply; a second identical run over the same output directory makes none (disk
 * cache, marked in the results and counted); `--no-cache` makes them again. Target calls are never
 * cached: every run calls the target 5 times.
 */
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { tempDir } from '../support/cli.js';
import type { Scripted } from '../support/fake-server.js';
import { caseOf, fakeOpenAI, openaiEnv } from './cli-helpers.js';
import { explain, runFixtureInProcess, type FixtureRunOptions } from '../support/run-fixture-in-process.js';
import { splitPrompt, userText } from './helpers.js';

describe.concurrent('judge cache across repeats and runs', () => {
  it('one request per distinct reply, none on a second run, all again with --no-cache', async (t: TestContext) => {
    const f = await fakeOpenAI((): Scripted => ({ json: { score: 0.9, reason: 'shipped', evidence: [] }, usage: { input: 300, output: 20 } }));
    t.onTestFinished(() => f.close());
    const outDir = join(tempDir(), 'out');
    const run: FixtureRunOptions = { selection: { filter: ['cache/alternating'], repeat: 5 }, flags: { earlyStop: false }, env: openaiEnv(f), judge: 'openai:gpt-4.1-mini', outDir };

    // Run 1: two distinct replies over five trials → two requests, one per reply.
    const first = await runFixtureInProcess('judges-cli', run);
    expect(first.code, explain(first)).toBe(0);
    expect(first.calls()).toHaveLength(5);
    expect(f.count).toBe(2);
    expect(f.bodies.map((b) => splitPrompt(userText(b)).block.output).sort()).toEqual(['Reply A: your order shipped.', 'Reply B: your order shipped.']);
    const r1 = first.results();
    const judged1 = caseOf(r1, 'cache/alternating').trials.map((x) => x.assertions[0]!);
    expect(judged1.every((a) => a.status === 'passed' && a.score === 0.9)).toBe(true);
    expect(judged1.reduce((s, a) => s + a.judge!.usage.calls, 0)).toBe(2);
    expect(r1.summary.usage.judge).toMatchObject({ calls: 2, inputTokens: 600, outputTokens: 40 });

    // Run 2, same output directory: every verdict from the disk cache, zero requests.
    const second = await runFixtureInProcess('judges-cli', run);
    expect(second.code, explain(second)).toBe(0);
    expect(second.calls()).toHaveLength(5);
    expect(f.count).toBe(2);
    const r2 = second.results();
    const judged2 = caseOf(r2, 'cache/alternating').trials.map((x) => x.assertions[0]!);
    expect(judged2).toHaveLength(5);
    for (const a of judged2) {
      expect(a).toMatchObject({ status: 'passed', score: 0.9, reason: 'shipped' });
      expect(a.judge?.cached).toBe(true);
      expect(a.judge?.usage).toMatchObject({ calls: 0, inputTokens: 0, outputTokens: 0 });
    }
    expect(r2.summary.usage.judge).toMatchObject({ calls: 0, inputTokens: 0, outputTokens: 0 });
    expect(r2.summary.counters.judgeCallsFromCache).toBe(5);
    expect(r2.summary.counters.judgeTokensSavedByCache).toBe(5 * 320);

    // Run 3, --no-cache: no disk cache and no sharing between repeats.
    const third = await runFixtureInProcess('judges-cli', { ...run, cache: false });
    expect(third.code, explain(third)).toBe(0);
    expect(third.calls()).toHaveLength(5);
    expect(f.count).toBe(2 + 5);
    const r3 = third.results();
    expect(caseOf(r3, 'cache/alternating').trials.every((x) => !x.assertions[0]!.judge?.cached)).toBe(true);
    expect(r3.summary.counters.judgeCallsFromCache).toBe(0);
    expect(r3.summary.usage.judge).toMatchObject({ calls: 5, inputTokens: 1500, outputTokens: 100 });
  });

  it('an invalid judge answer is not cached: the next run asks again', async (t: TestContext) => {
    let n = 0;
    const f = await fakeOpenAI((): Scripted => (n++ === 0 ? { text: 'no json here' } : { json: { score: 0.9, reason: 'ok', evidence: [] } }));
    t.onTestFinished(() => f.close());
    const outDir = join(tempDir(), 'out');
    const run: FixtureRunOptions = { selection: { filter: ['gates/gate-passes'] }, env: openaiEnv(f), judge: 'openai:gpt-4.1-mini', outDir };
    const first = await runFixtureInProcess('judges-cli', run);
    expect(first.code, explain(first)).toBe(1);
    const second = await runFixtureInProcess('judges-cli', run);
    expect(second.code, explain(second)).toBe(0);
    expect(f.count).toBe(2);
  });
});
