/**
 * Ctrl-C while a judge batch is pending (`--judge-batch`): the CLI cancels the batch at the provider
 * (the fake server sees the cancel), writes what finished marked interrupted, and exits 130. The
 * batch's cancel is the subject, not the process: the built CLI's `main` runs in the test worker and
 * gets the SIGINT as its listener would. Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { startCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

describe('Ctrl-C with a judge batch pending', () => {
  it('cancels the batch at the provider and exits 130 with the trials interrupted', async () => {
    // The batch never gets past in_progress on its own.
    fake = await startFakeOpenAI({
      batch: { pollsInProgress: 1_000_000 },
      script: (body) => (body.response_format ? { json: { score: 1, reason: 'ok', evidence: [] } } : { text: 'the order shipped' }),
    });
    const dir = tempDir();
    mkdirSync(join(dir, 'evals'));
    const model = `{ provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}' }`;
    writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['evals/*.eval.yaml'], targets: { t: { model: ${model} } }, judge: ${model}, concurrency: 2 };\n`);
    writeFileSync(
      join(dir, 'evals', 'b.eval.yaml'),
      ['suite: b', 'target: t', 'repeat: 3', 'cases:', '  - id: order', '    input: where is my order?', '    assert:', '      - { type: judge, criteria: says it shipped }', ''].join('\n'),
    );
    const json = join(dir, 'results.json');
    const cli = startCliInProcess(['run', '--judge-batch', '--no-cache', '--json', json], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000' } });
    // The CLI says the batch is submitted: it is pending at the fake, which never ends it.
    await cli.waitForStderr(/judge batch \S+ \(openai:gpt-4\.1-mini\): 3 requests submitted/);
    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(130);

    const batch = fake.batches.creates[0]!;
    expect(batch.lines).toBe(3);
    expect(fake.batches.cancels).toEqual([batch.id]);
    // No judge call went out live.
    expect(fake.requests.filter((q) => q.path === '/v1/chat/completions' && q.body?.response_format)).toEqual([]);
    expect(r.stderr).toContain(`judge batch ${batch.id} (openai:gpt-4.1-mini): 3 requests submitted`);
    expect(r.stderr).toContain(`judge batch ${batch.id}: cancelled`);

    const res = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(res.run.interrupted).toBe(true);
    expect(res.cases[0]!.trials).toHaveLength(3);
    for (const t of res.cases[0]!.trials) expect(t).toMatchObject({ verdict: 'interrupted', interrupted: true });
  });
});
