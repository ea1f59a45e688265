/**
 * A judge score on a 1..10 scale prints as the author wrote the scale (`7/10`): in the result's
 * message, the terminal's assertion line and failure lines (GitHub summary); 0..1 scales keep decimals.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { githubReporter } from '../../src/report/github.js';
import { formatScore } from '../../src/report/format.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const evals = (rubric: string) => `suite: s\ntarget: agent\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: judge, criteria: is polite, severity: gate, ${rubric} }\n`;

async function run(rubric: string, answer: number) {
  fake = await startFakeOpenAI({ script: () => ({ json: { score: answer, reason: 'curt', evidence: [] } }) });
  let terminal = '';
  const summaryFile = join(mkdtempSync(join(tmpdir(), 'agent-evals-gh-')), 'summary.md');
  const r = await runInProcess({
    files: { 'evals/s.eval.yaml': evals(rubric) },
    config: { targets: { agent: () => 'ok.' }, judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 } },
    flags: { cache: false },
    env,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    reporters: () => [terminalReporter({ out: { write: (t: string) => (terminal += t) }, live: false, verbose: false }), githubReporter({ out: { write: () => true }, summaryFile })],
  });
  return { ...r, terminal, summary: readFileSync(summaryFile, 'utf8') };
}

describe('scores on the author scale', () => {
  it('scale: 10, min: 8, answered 7: "7/10" in the result, the terminal and the GitHub summary', async () => {
    const { results, terminal, summary } = await run('scale: 10, min: 8', 7);
    const a = results.cases[0]!.trials[0]!.assertions[0]!;
    expect(a).toMatchObject({ status: 'failed', score: 0.7, threshold: 0.8, scale: 10 });
    expect(a.message).toContain('score 7/10 < 8/10');
    const line = terminal.split('\n').find((l) => l.includes('judge "is polite"'))!;
    expect(line).toContain('score 7/10 < 8/10 7/10 (min 8/10)');
    expect(line).not.toContain('0.70');
    expect(summary).toContain('score 7/10 \\< 8/10');
  });

  it('the default 0..1 scale keeps two decimals', async () => {
    const { results, terminal } = await run('min: 0.8', 0.7);
    const a = results.cases[0]!.trials[0]!.assertions[0]!;
    expect(a.scale).toBeUndefined();
    expect(a.message).toContain('score 0.70 < 0.80');
    expect(terminal).toContain('0.70/0.80');
  });

  it('a half point between reads 7.5/10', () => {
    expect(formatScore(0.75, 10)).toBe('7.5/10');
    expect(formatScore(0.75)).toBe('0.75');
  });
});
