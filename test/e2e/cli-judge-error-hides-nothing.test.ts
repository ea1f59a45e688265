/**
 * One judge error hides no judged failure of the same judge (the built CLI's `main`, in-process, with
 * a fake OpenAI judge on 127.0.0.1 reached by the real SDK). The judge is the same on both sides; with
 * BROKEN set the agent's replies get worse, and the judge's answer to its first one is unreadable (a
 * judge error). Without the rule `compare` read the case "could not compare: judge errors", never
 * counted, and exited 0 over two failures in two judged trials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let fake: FakeProvider;
beforeAll(async () => {
  // A good reply scores 0.9, a vague one 0.2; the answer about the reply marked GARBLE is no verdict at all.
  fake = await startFakeOpenAI({
    script: (body: { messages: Array<{ content: unknown }> }) => {
      const asked = JSON.stringify(body.messages);
      if (asked.includes('GARBLE')) return { json: { verdict: 'unsure' } };
      return { json: { score: asked.includes('not sure') ? 0.2 : 0.9, reason: 'scored', evidence: [] } };
    },
  });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const CONFIG = `let calls = 0;
export default {
  targets: {
    agent() {
      calls += 1;
      if (!process.env.BROKEN) return 'Your order A1 has shipped.';
      return calls === 1 ? 'GARBLE I am not sure.' : 'I am not sure where it is.';
    },
  },
  judge: 'openai:judge-a',
  concurrency: 1,
};
`;
const EVAL = `suite: support
target: agent
repeat: 3
cases:
  - id: order-status
    input: Where is my order A1?
    assert: [{ type: judge, criteria: Tells the customer the order's status., threshold: 0.5 }]
`;

const cli = (dir: string, args: string[], broken = false) =>
  runCliInProcess(args, { cwd: dir, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-judge-key', ...(broken ? { BROKEN: '1' } : {}) } });

describe('a worse agent whose judge erred once', () => {
  it('compare: the judged failures of the trials the judge answered are regressed, counted, exit 1', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
    const base = await cli(dir, ['run', '--no-early-stop', '--no-cache', '--json', 'base.json']);
    expect(base.code, base.stdout + base.stderr).toBe(0);
    const head = await cli(dir, ['run', '--no-early-stop', '--no-cache', '--json', 'head.json'], true);
    expect(head.code, head.stdout + head.stderr).toBe(1);
    const r = await cli(dir, ['compare', 'base.json', 'head.json']);
    const out = stripAnsi(r.stdout);
    expect(out).toMatch(/regressed\s+support\/order-status\s+3\/3 → 0\/3, p = [\d.]+ \(judge "Tells the customer the order's status\." failed 2\/2, baseline 0\/3 \(same judge\)\)/);
    expect(r.code, out + r.stderr).toBe(1);
  });
});
