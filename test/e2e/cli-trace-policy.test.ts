/**
 * The trace policy in every shareable artifact, through the built CLI: a function target calls a
 * fake order service on 127.0.0.1 through `ctx.tool` (one call answered, one failing), single-turn
 * and in a conversation. Under `trace: safe` the tool's argument, result and error text occur in no
 * file a run shares (results, JUnit, HTML page, GitHub step summary and annotations, the saved
 * baseline, `agent-evals report`'s page) nor on stdout, while a gate on the tool's arguments still
 * passes, a `calledTool` miss names the call it did not count by its arguments' shape, and the run
 * folder's raw trials keep them for a re-judge. Under `trace: full` the results hold them (the miss
 * names the arguments in clear), and no raw file is written. The CLI's `main` runs in-process (no process is the subject).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { isDigest } from '../../src/core/digest.js';
import { readRawTrials, rawTrialsPath, RAW_TRIALS_FILE } from '../../src/report/raw-trials.js';

afterAll(removeTempDirs);

/** The tool's argument, the service's answer and its error text: distinctive, and no secret. */
const ARG = 'ORD-SECRETLESS-7731';
const RESULT = 'SHIPPED-VIA-KESTREL-4410';
const ERROR = 'WAREHOUSE-FAULT-5521';
const TOOL_DATA = [ARG, RESULT, ERROR];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function orderService(): Promise<FakeServer> {
  return startFakeServer((req) => {
    if (req.path === `/orders/${ARG}`) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: RESULT }) };
    if (req.path === '/stock') return { status: 503, body: `${ERROR}: stock service down` };
    return { status: 404, body: 'no such path' };
  });
}

/** The agent: looks the order up, tries the stock service, and answers without quoting either. */
const config = (policy: 'safe' | 'full', origin: string) => `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  trace: '${policy}',
  targets: {
    async shop(input, ctx) {
      await ctx.tool('lookup_order', { orderId: '${ARG}', region: 'eu-west' }, async (args) => (await fetch('${origin}/orders/' + args.orderId)).json());
      try {
        await ctx.tool('check_stock', { sku: 'plain' }, async () => {
          const res = await fetch('${origin}/stock');
          throw new Error(await res.text());
        });
      } catch {}
      return { reply: 'Your order is on its way.', steps: [{ text: 'I looked your order up.' }] };
    },
  },
};
`;

const EVAL = `suite: shop
target: shop
cases:
  - id: order-status
    input: Where is my order?
    assert:
      - type: calledTool
        tool: lookup_order
        args: { region: eu-west }
  - id: conversation
    turns:
      - input: Hello
      - input: Where is my order?
        assert: [{ type: calledTool, tool: lookup_order }]
  - id: no-stock-check
    input: Is it in stock?
    assert: [{ type: notCalledTool, tool: check_stock }]
  - id: other-region
    input: Where is my US order?
    assert: [{ type: calledTool, tool: lookup_order, args: { region: us-east } }]
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const leaked = (text: string) => TOOL_DATA.filter((v) => text.includes(v));

async function runProject(policy: 'safe' | 'full') {
  server = await orderService();
  const dir = writeProject({ 'evals.config.mjs': config(policy, server.origin), 'evals/shop.eval.yaml': EVAL });
  const r = await runCliInProcess(
    ['run', '--json', 'results.json', '--reporter', 'terminal', '--reporter', 'junit=junit.xml', '--reporter', 'html=report.html', '--reporter', 'github=summary.md', '--save-baseline'],
    { cwd: dir, env: { GITHUB_ACTIONS: 'true' } },
  );
  // no-stock-check fails (the agent did try the stock service): annotations and failure texts are written too.
  expect(r.code, r.stdout + r.stderr).toBe(1);
  const results: Results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
  return { dir, r, results };
}

describe('trace: safe', () => {
  it('tool arguments, results and error text reach no shareable artifact; a gate on the arguments still passes; the run folder keeps them raw', async () => {
    const { dir, r, results } = await runProject('safe');
    expect(server!.requests.map((q) => q.path)).toContain(`/orders/${ARG}`);
    expect(results.run.trace).toBe('safe');

    const report = await runCliInProcess(['report', 'results.json', '-o', 'again.html'], { cwd: dir });
    expect(report.code, report.stdout + report.stderr).toBe(0);
    const artifacts = ['results.json', 'junit.xml', 'report.html', 'summary.md', join('.out', 'baselines', 'main.json'), 'again.html'];
    for (const file of artifacts) expect({ file, leaked: leaked(readFileSync(join(dir, file), 'utf8')) }).toEqual({ file, leaked: [] });
    expect(leaked(r.stdout + r.stderr)).toEqual([]);
    expect(r.stdout).toMatch(/^::error /m);

    // The gate read the raw arguments: a digest has no `region` to match.
    const order = results.cases.find((c) => c.id === 'order-status')!;
    expect(order.verdict).toBe('passed');
    expect(order.trials[0]!.assertions[0]).toMatchObject({ kind: 'calledTool', status: 'passed' });
    const [lookup] = order.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(lookup).toMatchObject({ name: 'lookup_order', isError: false });
    expect(isDigest(lookup!.args) && isDigest(lookup!.result)).toBe(true);
    expect((lookup!.args as { preview: unknown }).preview).toEqual({ orderId: `<string:${ARG.length}>`, region: '<string:7>' });
    const conversation = results.cases.find((c) => c.id === 'conversation')!;
    expect(conversation.verdict).toBe('passed');
    expect(conversation.trials[0]!.turns![1]!.toolCalls.every((c) => isDigest(c.args) && isDigest(c.result))).toBe(true);
    // A miss names the call the filter left out, its arguments as their digest's shape.
    const miss = results.cases.find((c) => c.id === 'other-region')!.trials[0]!.assertions[0]!;
    expect(miss).toMatchObject({ kind: 'calledTool', status: 'failed' });
    expect(miss.message).toBe(
      `calledTool lookup_order with {"region":"us-east"}: called 0 times (expected at least 1); 1 other call with different args: {"orderId":"<string:${ARG.length}>","region":"<string:7>"}`,
    );
    // The agent's own text is not tool data.
    expect(order.trials[0]!.reply).toBe('Your order is on its way.');
    expect(order.trials[0]!.trace.steps!.some((s) => s.text === 'I looked your order up.')).toBe(true);

    // The run folder: the raw trials (secrets redacted, tool data in clear) and nothing else raw.
    const outDir = join(dir, '.out');
    const rawPath = rawTrialsPath(outDir, results.run.id);
    expect(leaked(readFileSync(rawPath, 'utf8')).sort()).toEqual([...TOOL_DATA].sort());
    for (const file of filesUnder(outDir).filter((f) => !f.endsWith(RAW_TRIALS_FILE))) expect({ file, leaked: leaked(readFileSync(file, 'utf8')) }).toEqual({ file, leaked: [] });
    const raw = (await readRawTrials(outDir, results.run.id))!;
    expect([...raw.keys()].sort()).toEqual(['shop/conversation', 'shop/no-stock-check', 'shop/order-status', 'shop/other-region']);
    expect(raw.get('shop/order-status')!.trials[0]!.trace.steps![0]!.toolCalls![0]!.args).toEqual({ orderId: ARG, region: 'eu-west' });
    expect(raw.get('shop/conversation')!.trials[0]!.turns![1]!.toolCalls[0]!.result).toEqual({ status: RESULT });
  });
});

describe('trace: full', () => {
  it('the results keep tool arguments, results and error text raw; no raw file is written', async () => {
    const { dir, results } = await runProject('full');
    expect(results.run.trace).toBe('full');
    expect(leaked(readFileSync(join(dir, 'results.json'), 'utf8')).sort()).toEqual([...TOOL_DATA].sort());
    expect(leaked(readFileSync(join(dir, 'report.html'), 'utf8')).sort()).toEqual([...TOOL_DATA].sort());
    expect(existsSync(rawTrialsPath(join(dir, '.out'), results.run.id))).toBe(false);
    expect(results.cases.find((c) => c.id === 'other-region')!.trials[0]!.assertions[0]!.message).toContain(`1 other call with different args: {"orderId":"${ARG}","region":"eu-west"}`);

    // `agent-evals report` shows a full file as it is, and a file that does not name its policy
    // (written before the policy reached the results) as `safe`, the default.
    const full = await runCliInProcess(['report', 'results.json', '-o', 'full.html'], { cwd: dir });
    expect(full.code, full.stderr).toBe(0);
    expect(leaked(readFileSync(join(dir, 'full.html'), 'utf8'))).toContain(ARG);
    // Such a file holds no miss naming the agent's arguments (that came after the policy): its
    // messages are shown as written, so the case whose miss names them under `full` is left out.
    const { trace: _trace, ...run } = results.run;
    const written = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ ...written, run, cases: written.cases.filter((c) => c.id !== 'other-region') }));
    const old = await runCliInProcess(['report', 'old.json', '-o', 'old.html'], { cwd: dir });
    expect(old.code, old.stderr).toBe(0);
    expect(leaked(readFileSync(join(dir, 'old.html'), 'utf8'))).toEqual([]);
  });
});
