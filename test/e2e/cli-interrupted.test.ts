/**
 * Ctrl-C cuts off trials whose target or judge is still waiting on a (fake) model: after the grace
 * they are recorded as `interrupted`, not failed, and their cases do not read as failed. The
 * recording is the subject, not the process: the built CLI's `main` runs in the test worker and gets
 * the SIGINT as its listener would. Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { startCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

describe('Ctrl-C mid-run', () => {
  it('records the trials it cut off (target or judge) as interrupted, not failed', async () => {
    // The target's call for "slow" and every judge call hang for a minute; "fast" answers at once.
    // The second hanging call to arrive is the test's cue: no clock decides when Ctrl-C is sent.
    let hanging = 0;
    let bothHanging!: () => void;
    const cue = new Promise<void>((resolve) => (bothHanging = resolve));
    const hang = <T>(then: T) => {
      if (++hanging === 2) bothHanging();
      return { delayMs: 60_000, then };
    };
    fake = await startFakeOpenAI({
      script: (body) => {
        if (body.response_format) return hang({ json: { score: 1, reason: 'late', evidence: [] } });
        const text = String(body.messages.at(-1).content);
        return text === 'slow' ? hang({ text: 'late' }) : { text: 'fast reply' };
      },
    });
    const dir = tempDir();
    mkdirSync(join(dir, 'evals'));
    const model = `{ provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}' }`;
    writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['evals/*.eval.yaml'], targets: { t: { model: ${model} } }, judge: ${model}, concurrency: 4 };\n`);
    writeFileSync(
      join(dir, 'evals', 'cut.eval.yaml'),
      [
        'suite: cut',
        'target: t',
        'cases:',
        '  - id: target-cut',
        '    input: slow',
        '    assert:',
        '      - { type: contains, value: late }',
        '  - id: judge-cut',
        '    input: fast',
        '    assert:',
        '      - { type: contains, value: fast }',
        '      - { type: judge, criteria: answers quickly }',
        '',
      ].join('\n'),
    );
    const json = join(dir, 'results.json');
    const cli = startCliInProcess(['run', '--json', json], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000' } });
    // Both model calls that will hang have arrived: the target's for "slow", the judge's for "fast".
    await Promise.race([cue, cli.done.then(() => Promise.reject(new Error(`the CLI ended before both model calls arrived:\n${cli.stderr()}`)))]);
    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(130);

    const res = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(res.run.interrupted).toBe(true);
    for (const c of res.cases) {
      expect(c.trials, c.id).toHaveLength(1);
      expect(c.trials[0], c.id).toMatchObject({ verdict: 'interrupted', interrupted: true });
      expect(c.verdict, c.id).not.toBe('failed');
    }
    expect(res.summary.cases.failed).toBe(0);
    expect(res.summary.trials).toMatchObject({ run: 2, passed: 0, interrupted: 2 });
  }, 120_000);
});
