/**
 * `agent-evals run` and `doctor` behind a forward proxy (the built CLI's `main`, in-process; needs
 * dist/): with HTTP_PROXY / HTTPS_PROXY set, a model target's call reaches the fake model server
 * through the counting proxy on 127.0.0.1; with NO_PROXY covering the server, directly; the config's
 * `proxy` wins over the environment; doctor names the proxy of each model, never its credentials.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';
import { writeProject } from '../support/temp-project.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => removeTempDirs());

/** Every proxy variable unset, so the worker's own environment cannot decide a test. */
const NO_PROXY_VARS = { HTTP_PROXY: undefined, HTTPS_PROXY: undefined, http_proxy: undefined, https_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };

async function setup(configExtra = ''): Promise<{ dir: string; fake: FakeOpenAI; proxy: ForwardProxy; env: Record<string, string | undefined> }> {
  const fake = await startFakeOpenAI({ script: () => ({ text: 'Answer: proxied' }) });
  const proxy = await startForwardProxy();
  closers.push(
    () => fake.close(),
    () => proxy.close(),
  );
  const dir = writeProject({
    'evals.config.mjs': `export default { evals: ['*.eval.yaml'], ${configExtra} targets: { agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 0 } } } };\n`,
    'one.eval.yaml': 'suite: one\ntarget: agent\ncases:\n  - id: c1\n    input: hello\n    assert: [{ type: contains, value: proxied }]\n',
  });
  return { dir, fake, proxy, env: { ...NO_PROXY_VARS, OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url } };
}

const run = (dir: string, env: Record<string, string | undefined>) => runCliInProcess(['run', '--no-results'], { cwd: dir, env });

describe('agent-evals run behind a proxy', () => {
  it('HTTPS_PROXY / HTTP_PROXY set: the model call reaches the fake server through the proxy', async () => {
    const { dir, fake, proxy, env } = await setup();
    const r = await run(dir, { ...env, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(1);
    expect(proxy.count()).toBeGreaterThan(0);
    expect(proxy.connects).toContain(new URL(fake.url).host);
  });

  it('NO_PROXY covering the server: the call goes directly, the proxy sees nothing (covering another host: through it)', async () => {
    const { dir, fake, proxy, env } = await setup();
    const other = await run(dir, { ...env, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'models.internal.example,localhost' });
    expect(other.code, other.stdout + other.stderr).toBe(0);
    const through = proxy.count();
    expect(through).toBeGreaterThan(0);
    const r = await run(dir, { ...env, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'models.internal.example,127.0.0.1' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(2);
    expect(proxy.count()).toBe(through);
  });

  it("the config's proxy wins over the environment: NO_PROXY covers the server, the call still goes through the configured proxy", async () => {
    const fakeProxy = await startForwardProxy();
    closers.push(() => fakeProxy.close());
    const { dir, fake, env } = await setup(`proxy: '${fakeProxy.url}',`);
    const r = await run(dir, { ...env, NO_PROXY: '127.0.0.1' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(1);
    expect(fakeProxy.count()).toBeGreaterThan(0);
  });

  it("the config's proxy: false goes directly whatever HTTP_PROXY says", async () => {
    const { dir, fake, proxy, env } = await setup('proxy: false,');
    const r = await run(dir, { ...env, HTTP_PROXY: proxy.url });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(1);
    expect(proxy.count()).toBe(0);
  });
});

describe('agent-evals doctor names the proxy', () => {
  const proxyLine = (stdout: string) =>
    stdout
      .split('\n')
      .find((l) => l.trimStart().startsWith('proxy '))
      ?.trim();

  it('from HTTP_PROXY, without its credentials; NO_PROXY: direct, saying why', async () => {
    const { dir, proxy, env } = await setup();
    const secret = 'Pr0xyPassw0rd';
    const withProxy = await runCliInProcess(['doctor'], { cwd: dir, env: { ...env, HTTP_PROXY: `http://evals:${secret}@127.0.0.1:${proxy.port}` } });
    expect(withProxy.code, withProxy.stdout + withProxy.stderr).toBe(0);
    expect(proxyLine(withProxy.stdout)).toBe(`proxy         http://127.0.0.1:${proxy.port} (from HTTP_PROXY)`);
    expect(withProxy.stdout + withProxy.stderr).not.toContain(secret);

    const json = await runCliInProcess(['doctor', '--json'], { cwd: dir, env: { ...env, HTTP_PROXY: `http://evals:${secret}@127.0.0.1:${proxy.port}` } });
    expect(JSON.parse(json.stdout).models[0].proxy).toEqual({ proxy: `http://127.0.0.1:${proxy.port}`, because: 'from HTTP_PROXY' });
    expect(json.stdout).not.toContain(secret);

    const direct = await runCliInProcess(['doctor'], { cwd: dir, env: { ...env, HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(proxyLine(direct.stdout)).toBe(`proxy         none, direct (NO_PROXY covers ${new URL(env.OPENAI_BASE_URL!).host})`);
    // Offline: doctor sends nothing.
    expect(proxy.count()).toBe(0);
  });

  it("the config's proxy over the environment's, and no proxy at all said plainly", async () => {
    const { dir, proxy, env } = await setup(`proxy: 'http://team:c0nfigSecret@127.0.0.1:1',`);
    const r = await runCliInProcess(['doctor'], { cwd: dir, env: { ...env, HTTP_PROXY: proxy.url } });
    expect(proxyLine(r.stdout)).toBe('proxy         http://127.0.0.1:1 (proxy in the config)');
    expect(r.stdout + r.stderr).not.toContain('c0nfigSecret');

    const plain = await setup();
    const none = await runCliInProcess(['doctor'], { cwd: plain.dir, env: plain.env });
    expect(proxyLine(none.stdout)).toBe('proxy         none, direct (HTTP_PROXY is not set)');
  });
});
