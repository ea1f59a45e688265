/**
 * A function target's clients behind a forward proxy (the built CLI's `main`, in-process; needs
 * dist/): `ctx.openai()`, `ctx.anthropic()` and `ctx.fetch()` each call their own fake server on
 * 127.0.0.1, and the counting proxy (test/support/forward-proxy.ts) sees a tunnel to each when
 * HTTP_PROXY / HTTPS_PROXY say so, none when NO_PROXY covers the host; the config's `proxy` wins
 * over the environment, in an isolated target's worker too. The calls' usage is still recorded.
 */
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => removeTempDirs());

/** Every proxy variable unset, so the worker's own environment cannot decide a test. */
const NO_PROXY_VARS = { HTTP_PROXY: undefined, HTTPS_PROXY: undefined, http_proxy: undefined, https_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };

/** One call through each client, each to its own server (FETCH_BASE_URL: the one ctx.fetch posts to). */
const AGENT = `async (input, ctx) => {
  const openai = await ctx.openai({ maxRetries: 0 });
  const a = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
  const claude = await ctx.anthropic({ maxRetries: 0 });
  const b = await claude.messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: input }] });
  const res = await ctx.fetch('openai')(process.env.FETCH_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-fetch-0000' },
    body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] }),
  });
  const c = await res.json();
  return [a.choices[0].message.content, b.content[0].text, c.choices[0].message.content].join(' ');
}`;

interface Setup {
  dir: string;
  servers: { openai: FakeOpenAI; anthropic: FakeAnthropic; fetched: FakeOpenAI };
  proxy: ForwardProxy;
  env: Record<string, string | undefined>;
}

async function setup(configExtra = '', targetExtra = ''): Promise<Setup> {
  const usage = { input: 10, output: 2 };
  const openai = await startFakeOpenAI({ script: () => ({ text: 'one', usage, model: 'gpt-4.1-mini-2025-04-14' }) });
  const anthropic = await startFakeAnthropic({ script: () => ({ text: 'two', usage, model: 'claude-haiku-4-5-20251001' }) });
  const fetched = await startFakeOpenAI({ script: () => ({ text: 'three', usage, model: 'gpt-4.1-mini-2025-04-14' }) });
  const proxy = await startForwardProxy();
  closers.push(
    () => openai.close(),
    () => anthropic.close(),
    () => fetched.close(),
    () => proxy.close(),
  );
  const dir = writeProject({
    'evals.config.mjs': `export default { evals: ['*.eval.yaml'], ${configExtra} targets: { agent: { ${targetExtra} function: ${AGENT} } } };\n`,
    'one.eval.yaml': 'suite: one\ntarget: agent\ncases:\n  - id: c1\n    input: hello\n    assert: [{ type: contains, value: one two three }]\n',
  });
  const env = {
    ...NO_PROXY_VARS,
    OPENAI_API_KEY: 'sk-test-dummy-key-000000',
    OPENAI_BASE_URL: openai.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-dummy-0000',
    ANTHROPIC_BASE_URL: anthropic.url,
    FETCH_BASE_URL: fetched.url,
  };
  return { dir, servers: { openai, anthropic, fetched }, proxy, env };
}

/** A run with a results file; exit 0 expected, each server asked once more (`nth` run of this setup). */
async function run({ dir, servers }: Setup, env: Record<string, string | undefined>, nth = 1) {
  const json = join(dir, 'results.json');
  const r = await runCliInProcess(['run', '--json', json], { cwd: dir, env });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect([servers.openai.count, servers.anthropic.count, servers.fetched.count]).toEqual([nth, nth, nth]);
  return readResults(json).cases[0]!.trials[0]!;
}

const hostOf = (server: { url: string }) => new URL(server.url).host;
const allHosts = ({ servers }: Setup) => [hostOf(servers.openai), hostOf(servers.anthropic), hostOf(servers.fetched)].sort();

describe("a function target's ctx.openai() / ctx.anthropic() / ctx.fetch() behind a proxy", () => {
  it('HTTPS_PROXY / HTTP_PROXY set: each client reaches its server through the proxy, and its usage is still recorded', async () => {
    const s = await setup();
    const trial = await run(s, { ...s.env, HTTPS_PROXY: s.proxy.url, HTTP_PROXY: s.proxy.url });
    expect([...new Set(s.proxy.connects)].sort()).toEqual(allHosts(s));
    expect(trial.trace.steps?.map((step) => step.model)).toEqual(['openai:gpt-4.1-mini-2025-04-14', 'anthropic:claude-haiku-4-5-20251001', 'openai:gpt-4.1-mini-2025-04-14']);
    expect(trial.usage.target).toMatchObject({ calls: 3, inputTokens: 30, outputTokens: 6 });
  });

  it('NO_PROXY covering the hosts: every client goes directly, the proxy sees nothing (covering another host: through it)', async () => {
    const s = await setup();
    const proxied = { ...s.env, HTTPS_PROXY: s.proxy.url, HTTP_PROXY: s.proxy.url };
    await run(s, { ...proxied, NO_PROXY: 'models.internal.example,localhost' });
    expect([...new Set(s.proxy.connects)].sort()).toEqual(allHosts(s));
    const through = s.proxy.count();
    await run(s, { ...proxied, NO_PROXY: 'models.internal.example,127.0.0.1' }, 2);
    expect(s.proxy.count()).toBe(through);
  });

  it("the config's proxy wins over the environment: NO_PROXY covers the hosts, the clients still go through it", async () => {
    const configured = await startForwardProxy();
    closers.push(() => configured.close());
    const s = await setup(`proxy: '${configured.url}',`);
    await run(s, { ...s.env, HTTP_PROXY: s.proxy.url, NO_PROXY: '127.0.0.1' });
    expect([...new Set(configured.connects)].sort()).toEqual(allHosts(s));
    expect(s.proxy.count()).toBe(0);
  });

  it("the config's proxy: false goes directly whatever HTTP_PROXY says (without it: through HTTP_PROXY)", async () => {
    const unset = await setup();
    await run(unset, { ...unset.env, HTTP_PROXY: unset.proxy.url });
    expect([...new Set(unset.proxy.connects)].sort()).toEqual(allHosts(unset));
    const s = await setup('proxy: false,');
    await run(s, { ...s.env, HTTP_PROXY: s.proxy.url });
    expect(s.proxy.count()).toBe(0);
  });

  it("a dispatcher the target gives its client (fetchOptions: { dispatcher }) is kept over the run's route", async () => {
    const mine = await startForwardProxy();
    closers.push(() => mine.close());
    const openai = await startFakeOpenAI({ script: () => ({ text: 'one', usage: { input: 10, output: 2 }, model: 'gpt-4.1-mini-2025-04-14' }) });
    closers.push(() => openai.close());
    const undici = pathToFileURL(createRequire(import.meta.url).resolve('undici')).href;
    const dir = writeProject({
      'evals.config.mjs': `import { ProxyAgent } from '${undici}';
const dispatcher = new ProxyAgent(process.env.MY_PROXY);
export default { evals: ['*.eval.yaml'], targets: { agent: async (input, ctx) => {
  const openai = await ctx.openai({ maxRetries: 0, fetchOptions: { dispatcher } });
  const a = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
  return a.choices[0].message.content;
} } };\n`,
      'one.eval.yaml': 'suite: one\ntarget: agent\ncases:\n  - id: c1\n    input: hello\n    assert: [{ type: contains, value: one }]\n',
    });
    const r = await runCliInProcess(['run'], { cwd: dir, env: { ...NO_PROXY_VARS, OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: openai.url, MY_PROXY: mine.url } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(mine.connects).toEqual([hostOf(openai)]);
  });

  it("an isolated target (isolate: true) takes the config's proxy into its worker", async () => {
    const configured = await startForwardProxy();
    closers.push(() => configured.close());
    const s = await setup(`proxy: '${configured.url}',`, 'isolate: true, maxHeapMb: 128,');
    const trial = await run(s, { ...s.env, NO_PROXY: '127.0.0.1' });
    expect([...new Set(configured.connects)].sort()).toEqual(allHosts(s));
    expect(trial.usage.target).toMatchObject({ calls: 3, inputTokens: 30, outputTokens: 6 });
  });
});
