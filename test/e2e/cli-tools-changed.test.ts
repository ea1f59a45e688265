/**
 * Tool definitions are part of what a baseline compares (the built CLI's `main`, in-process, with a
 * fake OpenAI model on 127.0.0.1 reached by the real SDK). The `support` model agent is offered two
 * local tools, `orders_lookup` (its description from LOOKUP_DESC) and `issue_refund`; `faq` is offered
 * `issue_refund` only; `echo` is a function target, which reports no tools. The fake model looks the
 * order up and says it shipped, unless the lookup tool's description says DEPRECATED: then it answers
 * without calling it, and the `calledTool` gate fails. Without the tools part a description edit the
 * agent shrugs off reads `unchanged`, and nothing names the tool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

interface Body {
  messages: Array<{ role: string }>;
  tools?: Array<{ function: { name: string; description?: string } }>;
}

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({
    script: (body: Body) => {
      const lookup = body.tools?.find((t) => t.function.name === 'orders_lookup');
      if (!lookup) return { text: 'We open at 9.', usage: { input: 20, output: 5 } };
      if (lookup.function.description?.includes('DEPRECATED')) return { text: 'I cannot look orders up today.', usage: { input: 30, output: 6 } };
      const answered = body.messages.some((m) => m.role === 'tool');
      return answered
        ? { text: 'Your order A1050 has shipped.', usage: { input: 60, output: 8 } }
        : { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], usage: { input: 40, output: 10 } };
    },
  });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, path)).href);
const DESCRIPTION = 'Look up an order by its id';
const CONFIG = `import { tool } from ${dist('dist/index.js')};
import { z } from ${dist('node_modules/zod/index.js')};

const lookup = tool({
  name: 'orders_lookup',
  description: process.env.LOOKUP_DESC,
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ id: orderId, status: 'shipped' }),
});
const refund = tool({
  name: 'issue_refund',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ refundId: 'RF-' + orderId }),
});

export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  targets: {
    support: { model: 'openai:gpt-4.1-mini', instructions: 'You answer questions about orders.', tools: [lookup, refund] },
    faq: { model: 'openai:gpt-4.1-mini', instructions: 'You answer questions about the store.', tools: [refund] },
    echo: () => 'ok',
  },
};
`;
const EVALS = {
  'evals/shop.eval.yaml': `suite: shop
target: support
cases:
  - id: status
    input: Where is my order A1050?
    assert:
      - { type: calledTool, tool: orders_lookup }
      - { type: contains, value: shipped }
`,
  'evals/faq.eval.yaml': `suite: faq
target: faq
cases:
  - { id: hours, input: When do you open?, assert: [{ type: contains, value: "9" }] }
`,
  'evals/echo.eval.yaml': `suite: echo
target: echo
cases:
  - { id: ok, input: hi, assert: [{ type: contains, value: ok }] }
`,
};

const env = (description: string) => ({ OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, LOOKUP_DESC: description });
const cli = (dir: string, args: string[], description = DESCRIPTION) => runCliInProcess(args, { cwd: dir, env: env(description) });
const results = (dir: string, file: string) => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));

/** A project with its baseline saved (`main`, and base.json): every case passes. */
async function project(): Promise<string> {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, ...EVALS });
  const base = await cli(dir, ['run', '--no-cache', '--save-baseline', '--json', 'base.json']);
  expect(base.code, base.stdout + base.stderr).toBe(0);
  return dir;
}

describe('a tool definition changed since the baseline', () => {
  it('the agent does as before: tools changed for the case offered it, naming the tool, exit 0; the results keep digests, not schemas', async () => {
    const dir = await project();
    const r = await cli(dir, ['run', '--no-cache', '--baseline', 'main', '--json', 'head.json'], 'Find one order by its id (v2)');
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/tools changed\s+shop\/status\s+1\/1 → 1\/1 \(tool orders_lookup changed\)/);
    expect(out).toMatch(/0 regressed \(0 counted, max 0\), 0 improved, 2 unchanged, 1 tools changed/);
    expect(out).toContain('1 case was offered other tool definitions than in the baseline (tool orders_lookup changed)');
    expect(out).not.toMatch(/changed\s+(faq|echo)\//);

    const [base, head] = [results(dir, 'base.json'), results(dir, 'head.json')];
    expect(head.comparison).toMatchObject({ failed: false, counted: 0, counts: { 'tools-changed': 1, unchanged: 2, regressed: 0 } });
    expect(head.comparison!.cases).toEqual([expect.objectContaining({ key: 'shop/status', kind: 'tools-changed', toolChanges: ['tool orders_lookup changed'] })]);

    const byKey = (doc: typeof base, suite: string) => doc.cases.find((c) => c.suite === suite)!;
    const [b, h] = [byKey(base, 'shop').toolsFingerprint!, byKey(head, 'shop').toolsFingerprint!];
    expect(Object.keys(h.tools).sort()).toEqual(['issue_refund', 'orders_lookup']);
    expect(h.tools.orders_lookup).not.toBe(b.tools.orders_lookup);
    expect(h.tools.issue_refund).toBe(b.tools.issue_refund);
    expect(byKey(head, 'shop').trials[0]!.trace.toolDigests).toEqual(h.tools);
    // The case is the same case, and so is the other agent's: only the tools moved.
    expect(byKey(head, 'shop').fingerprint).toBe(byKey(base, 'shop').fingerprint);
    expect(byKey(head, 'faq').toolsFingerprint).toEqual(byKey(base, 'faq').toolsFingerprint);
    expect(Object.keys(byKey(head, 'faq').toolsFingerprint!.tools)).toEqual(['issue_refund']);
    // A function target reports no tools: it has no tools part and compares as before.
    expect(byKey(head, 'echo').toolsFingerprint).toBeUndefined();
    // Digests, never the definitions.
    expect(readFileSync(join(dir, 'head.json'), 'utf8')).not.toContain('Find one order by its id');

    const compared = await cli(dir, ['compare', 'base.json', 'head.json']);
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    expect(stripAnsi(compared.stdout)).toMatch(/tools changed\s+shop\/status\s+1\/1 → 1\/1 \(tool orders_lookup changed\)/);
  });

  it('the agent stops calling the tool, so its calledTool gate fails: regressed, counted, exit 1, the tool change named but no excuse', async () => {
    const dir = await project();
    const r = await cli(dir, ['run', '--no-cache', '--baseline', 'main', '--json', 'head.json'], 'DEPRECATED: use search instead');
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(1);
    expect(out).toMatch(
      /regressed\s+shop\/status\s+1\/1 → 0\/1, p = 0\.500 \(verdict passed → failed, score 1\.00 → 0\.00; the tools also changed \(tool orders_lookup changed\), which does not excuse it\)/,
    );
    expect(out).toMatch(/1 regressed \(1 counted, max 0\), 0 improved, 2 unchanged/);
    expect(out).not.toMatch(/tools changed\s+shop\/status/);
    const { comparison } = results(dir, 'head.json');
    expect(comparison).toMatchObject({ failed: true, counted: 1, counts: { regressed: 1, 'tools-changed': 0 } });
    expect(comparison!.cases[0]).toMatchObject({ key: 'shop/status', kind: 'regressed', counted: true, toolChanges: ['tool orders_lookup changed'] });

    const compared = await cli(dir, ['compare', 'base.json', 'head.json']);
    expect(compared.code, compared.stdout + compared.stderr).toBe(1);
    expect(stripAnsi(compared.stdout)).toMatch(/regressed\s+shop\/status/);
  });
});
