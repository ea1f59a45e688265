/**
 * Response bodies are bounded: a model endpoint (real OpenAI SDK, fake server) or an HTTP target
 * whose body never ends fails its trial with a size error, and the CLI's memory stays flat. The
 * memory is the spawned CLI process's peak RSS; a test of the message alone runs the CLI's `main`
 * in-process. Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let fake: FakeProvider | undefined;
let server: Server | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});
afterAll(removeTempDirs);

/** A project with one case against `target`, plus a preload that records the CLI's peak RSS. */
function project(target: string): { dir: string; rssFile: string; preload: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'evals'));
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['evals/*.eval.yaml'], targets: { t: ${target} } };\n`);
  writeFileSync(join(dir, 'evals', 'big.eval.yaml'), 'suite: big\ntarget: t\ncases:\n  - id: endless\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n');
  const rssFile = join(dir, 'rss.txt');
  const preload = join(dir, 'rss.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
  return { dir, rssFile, preload };
}

/** The trial of a spawned run, with the process's peak RSS. */
async function runBounded(target: string, env: Record<string, string> = {}) {
  const { dir, rssFile, preload } = project(target);
  const json = join(dir, 'results.json');
  const result = await runCli(['run', '--json', json], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${preload}` }, timeoutMs: 60_000 });
  const results = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
  const maxRssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  return { result, trial: results.cases[0]!.trials[0]!, maxRssMb };
}

describe('response bodies are bounded', () => {
  it('fails a model trial whose endpoint streams forever with a size error, in bounded memory', async () => {
    fake = await startFakeOpenAI({ script: () => ({ endless: true }) });
    const { result, trial, maxRssMb } = await runBounded(`{ model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}' } }`, { OPENAI_API_KEY: 'sk-test-dummy-key-000000' });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toMatch(/response body larger than 16 MB \(maxResponseBytes: 16777216\)/);
    // Not retried: a size error is the endpoint's answer, not a transient failure.
    expect(fake.count).toBe(1);
    expect(maxRssMb).toBeLessThan(300);
  }, 90_000);

  it('honours a configured maxResponseBytes for a model', async () => {
    fake = await startFakeOpenAI({ script: () => ({ endless: true }) });
    const { dir } = project(`{ model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}', maxResponseBytes: 100000 } }`);
    const json = join(dir, 'results.json');
    const result = await runCliInProcess(['run', '--json', json], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000' } });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const trial = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8'))).cases[0]!.trials[0]!;
    expect(trial.error).toMatch(/response body larger than 100000 bytes/);
  }, 60_000);

  it('fails an HTTP target whose turn answer streams forever with a size error', async () => {
    server = createServer((req, res) => {
      if (req.url === '/health') return void res.end('{}');
      if (req.url === '/sessions') return void res.end('{"sessionId":"s1"}');
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { trial, maxRssMb } = await runBounded(`{ url: '${url}', maxResponseBytes: 1000000 }`);
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toMatch(/POST \/sessions\/s1\/turns answered 200 with a response body larger than 1000000 bytes/);
    expect(maxRssMb).toBeLessThan(300);
  }, 60_000);
});
