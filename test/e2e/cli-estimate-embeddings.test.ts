/**
 * `similarTo`'s embeddings in `run --estimate` and in the `--max-cost` check before a run (built CLI's
 * `main` in-process, fake OpenAI server with the real SDK): one embedding of the reply per assertion
 * per trial and one of each reference, priced from the embedding price table, in the judge column;
 * a case with no history still has its embeddings priced. Needs dist/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { writeProject } from '../support/temp-project.js';
import { usdText } from '../../src/cli/estimate-text.js';
import { estimatedTokens } from '../../src/runner/estimate/estimate-embeddings.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const REPLY = 'Your meeting is now on Friday afternoon: we moved it.';
const VALUE = 'The meeting has been moved to Friday afternoon.';
const OTHER = 'The invoice was sent to the billing address on file.';
const CONFIG = (model: string) => `export default {\n  outputDir: '.out',\n  targets: { bot: () => ${JSON.stringify(REPLY)} },\n  embeddingModel: ${JSON.stringify(model)},\n};\n`;
const similar = (value: string) => `    assert: [{ type: similarTo, value: ${JSON.stringify(value)}, threshold: 0.5 }]\n`;
// a and b share their reference: the cache embeds it once for both.
const EVAL = `suite: sim\ntarget: bot\nrepeat: 3\ncases:\n  - id: a\n    input: a\n${similar(VALUE)}  - id: b\n    input: b\n${similar(VALUE)}`;

/** The judge column of the estimate's `total` row. */
const judgeTotal = (stdout: string) => /^ {2}total\s+\d+\s+\d+\s+\S+\s+(\S+)\s+\S+$/m.exec(stdout)?.[1];

describe('similarTo in the cost estimate', () => {
  it('counts one reply embedding per assertion per trial and each reference once, priced at text-embedding-3-small, a new case included', async () => {
    fake = await startFakeOpenAI();
    const dir = writeProject({ 'evals.config.mjs': CONFIG('openai:text-embedding-3-small'), 'evals/sim.eval.yaml': EVAL });
    const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
    const run = await runCliInProcess(['run', '--no-early-stop', '--json'], { cwd: dir, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // A case added since the recording: no history, but its embeddings are known from the plan.
    writeFileSync(join(dir, 'evals/sim.eval.yaml'), `${EVAL}  - id: c\n    input: c\n${similar(OTHER)}`);
    const before = fake.count;

    const res = await runCliInProcess(['run', '--estimate', '--repeat', '10'], { cwd: dir, env });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake.count).toBe(before);
    // 3 cases x 10 trials of replies (a and b as long as their recorded reply, c as its reference),
    // and the two references once each, at $0.02 per 1M input tokens.
    const tokens = 20 * estimatedTokens(REPLY.length) + 10 * estimatedTokens(OTHER.length) + estimatedTokens(VALUE.length) + estimatedTokens(OTHER.length);
    const usd = (tokens * 0.02) / 1e6;
    expect(res.stdout).toContain(`similarTo: 32 embeddings (30 of replies, one per assertion per trial; 2 of references, once each), ${usdText(usd)} in the judge column`);
    expect(judgeTotal(res.stdout)).toBe(usdText(usd));
    expect(res.stdout).toMatch(/no history: 1 case, not priced \(but for their similarTo embeddings\):\n {4}sim\/c/);
    // The recorded embeddings are not judge answers the estimate assumes again: there were no others.
    expect(res.stdout).not.toMatch(/recorded answers came from the cache/);
  });

  it('--max-cost names an embedding model with no known price before the run', async () => {
    fake = await startFakeOpenAI();
    const dir = writeProject({ 'evals.config.mjs': CONFIG('together:bge-base-en'), 'evals/sim.eval.yaml': EVAL });
    const res = await runCliInProcess(['run', '--max-cost', '1'], { cwd: dir, env: { TOGETHER_BASE_URL: fake.url, TOGETHER_API_KEY: 'test-key' } });
    // The run goes on (a function target may still spend priced tokens); the fake has no such model, which is not the point here.
    expect(res.code, res.stdout + res.stderr).not.toBe(2);
    expect(res.stdout + res.stderr).toContain('--max-cost: no price is known for similarTo embeddings (together:bge-base-en): the budget cannot count what they spend');
  });
});
