/**
 * Response bodies are bounded: a model endpoint (real OpenAI SDK, fake server) or an HTTP target
 * whose body never ends fails its trial with a size error, and the CLI's memory stays flat. The
 * memory is the spawned CLI process's peak RSS: one spawned run holds both endless bodies (a case
 * each), and each test reads its own trial; a test of the message alone runs the CLI's `main`
 * in-process. Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { removeTempDirs, runCli, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  removeTempDirs();
});

const KEY = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };

/** A fake OpenAI endpoint whose every answer streams forever. */
async function endlessModel(): Promise<FakeProvider> {
  const fake = await startFakeOpenAI({ script: () => ({ endless: true }) });
  closers.push(() => fake.close());
  return fake;
}

/** An HTTP target (sessions API) whose turn answer streams forever. */
async function endlessHttpTarget(): Promise<string> {
  const server: Server = createServer((req, res) => {
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A project with one case (`<suite>/endless`) against each target, plus a preload that records the CLI's peak RSS. */
function project(targets: Record<string, string>): { dir: string; rssFile: string; preload: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'evals'));
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default { evals: ['evals/*.eval.yaml'], targets: { ${Object.entries(targets)
      .map(([name, spec]) => `${name}: ${spec}`)
      .join(', ')} } };\n`,
  );
  for (const name of Object.keys(targets)) {
    writeFileSync(join(dir, 'evals', `${name}.eval.yaml`), `suite: ${name}\ntarget: ${name}\ncases:\n  - id: endless\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n`);
  }
  const rssFile = join(dir, 'rss.txt');
  const preload = join(dir, 'rss.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
  return { dir, rssFile, preload };
}

const trialOf = (results: Results, suite: string) => results.cases.find((c) => c.suite === suite)!.trials[0]!;

/** The spawned run of both endless bodies, started by the first test that reads it. */
let bounded: Promise<{ result: CliResult; results: Results; maxRssMb: number; modelRequests: number }> | undefined;
function boundedRun() {
  bounded ??= (async () => {
    const fake = await endlessModel();
    const url = await endlessHttpTarget();
    const { dir, rssFile, preload } = project({
      model: `{ model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}' } }`,
      http: `{ url: '${url}', maxResponseBytes: 1000000 }`,
    });
    const json = join(dir, 'results.json');
    const result = await runCli(['run', '--json', json], { cwd: dir, env: { ...KEY, NODE_OPTIONS: `--require ${preload}` }, timeoutMs: 60_000 });
    const results = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    return { result, results, maxRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024, modelRequests: fake.count };
  })();
  return bounded;
}

describe('response bodies are bounded', () => {
  it('fails a model trial whose endpoint streams forever with a size error, in bounded memory', async () => {
    const { result, results, maxRssMb, modelRequests } = await boundedRun();
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const trial = trialOf(results, 'model');
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toMatch(/response body larger than 16 MB \(maxResponseBytes: 16777216\)/);
    // Not retried: a size error is the endpoint's answer, not a transient failure.
    expect(modelRequests).toBe(1);
    expect(maxRssMb).toBeLessThan(300);
  }, 90_000);

  it('honours a configured maxResponseBytes for a model', async () => {
    const fake = await endlessModel();
    const { dir } = project({ t: `{ model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${fake.url}', maxResponseBytes: 100000 } }` });
    const json = join(dir, 'results.json');
    const result = await runCliInProcess(['run', '--json', json], { cwd: dir, env: KEY });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const trial = trialOf(ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8'))), 't');
    expect(trial.error).toMatch(/response body larger than 100000 bytes/);
  }, 60_000);

  it('fails an HTTP target whose turn answer streams forever with a size error', async () => {
    const { results, maxRssMb } = await boundedRun();
    const trial = trialOf(results, 'http');
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toMatch(/POST \/sessions\/s1\/turns answered 200 with a response body larger than 1000000 bytes/);
    expect(maxRssMb).toBeLessThan(300);
  }, 90_000);
});
