/**
 * Reporters behind the safe multiplexer: a reporter that throws in `onCaseEnd` is reported once
 * (one line naming it and the hook), gets no further events, and breaks nothing else: the judge
 * cache is flushed, the results document and the JUnit file hold every case, and the run exits 2
 * (an output not written) rather than 1, which stays reserved for failed cases.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { junitReporter } from '../../src/report/junit.js';
import type { Reporter } from '../../src/report/reporter.js';
import type { FakeProvider } from '../support/fake-server.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

const EVALS = `suite: outputs
target: agent
cases:
${['one', 'two', 'three'].map((id) => `  - id: ${id}\n    input: where is order ${id}?\n    assert:\n      - { type: judge, criteria: says the order ${id} shipped }\n`).join('')}`;

describe('a reporter that throws in onCaseEnd', () => {
  it('leaves the results file, the judge cache and the other reporters complete', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.9, reason: 'shipped', evidence: [] }, usage: { input: 100, output: 10 } }) });
    const calls: string[] = [];
    const broken: Reporter = {
      name: 'broken',
      onCaseEnd(result) {
        calls.push(`onCaseEnd ${result.id}`);
        throw new Error('disk on fire');
      },
      onEnd() {
        calls.push('onEnd');
      },
    };
    const ended: string[] = [];
    const run = await runInProcess({
      files: { 'outputs.eval.yaml': EVALS },
      config: {
        targets: { agent: (input: string) => `${input.replace('where is', '')}: shipped.` },
        judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url },
        concurrency: 1,
      },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { OPENAI_API_KEY: 'test-key' } }),
      reporters: (dir) => [broken, { name: 'junit', ...junitReporter({ path: join(dir, 'junit.xml') }) }, { name: 'end', onEnd: ({ exitCode }) => void ended.push(`exit ${exitCode}`) }],
    });
    // Reported once, naming the reporter and the hook; no further events reach it, onEnd included.
    expect(run.problems).toEqual(['reporter "broken" failed in onCaseEnd: disk on fire; it gets no further events, so its output is incomplete']);
    expect(calls).toEqual(['onCaseEnd one']);

    // Every case ran and passed; the results document holds them all; reporters learn the exit code the run ends with.
    expect(run.results.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['one', 'passed'],
      ['two', 'passed'],
      ['three', 'passed'],
    ]);
    expect(run.exitCode).toBe(2);
    expect(ended).toEqual(['exit 2']);

    // The JUnit reporter, after the broken one in order, has every case.
    const xml = readFileSync(join(run.dir, 'junit.xml'), 'utf8');
    expect(xml).toContain('tests="3"');
    for (const id of ['one', 'two', 'three']) expect(xml).toContain(`name="${id}"`);

    // The judge cache was flushed: one line per judged reply, which a second run serves without a request.
    expect(fake.count).toBe(3);
    const cacheDir = join(run.dir, '.out', 'cache', 'judge');
    const lines = readdirSync(cacheDir).flatMap((f) => readFileSync(join(cacheDir, f), 'utf8').split('\n').filter(Boolean));
    expect(lines).toHaveLength(3);
  });

  it("reporters get a frozen, plain view of each case, not the planner's object", async () => {
    const views: unknown[] = [];
    await runInProcess({
      files: { 'outputs.eval.yaml': 'suite: outputs\ntarget: agent\ncases:\n  - id: one\n    input: hi\n    tags: [smoke]\n    assert:\n      - { type: contains, value: hi }\n' },
      config: { targets: { agent: (input: string) => input } },
      reporters: () => [{ name: 'spy', onTrialEnd: (c) => void views.push(c), onCaseEnd: (_r, c) => void views.push(c) }],
    });
    expect(views).toHaveLength(2);
    expect(views[0]).toBe(views[1]);
    const view = views[0] as Record<string, unknown>;
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.tags)).toBe(true);
    expect(view).toEqual({ index: 0, key: 'outputs/one', suite: 'outputs', id: 'one', file: 'outputs.eval.yaml', line: 4, tags: ['smoke'], targetName: 'agent', repeat: 1 });
  });
});
