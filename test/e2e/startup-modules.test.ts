/**
 * What start-up loads (issue 25): `agent-evals list` on the repository's example suite (its
 * evals.config.ts imports `agent-evals`, the public entry, and two TypeScript agents) and a config
 * that only imports the public entry load none of the runner, the HTTP stack (node:http, https,
 * http2, tls, undici), the provider SDKs, RE2 or the report writers; `evaluate().run()` loads the
 * runner when it is called. A probe in the child records the modules (test/support/module-probe.ts):
 * structural facts, no timing. Needs `npm run build` (it runs dist/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { runWithModuleProbe, runWithModuleProbeAsync, type ProbedRun } from '../support/module-probe.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

afterAll(removeTempDirs);

/** Built-ins a command that runs nothing must not load (undici is what a top-level `Response` pulls in). */
const HEAVY_BUILTINS = ['http', 'https', 'http2', 'tls', 'zlib', 'internal/deps/undici/undici'];
/** Built-ins `list` never uses, so never loads (they are loaded on first use). */
const LIST_LAZY_BUILTINS = [
  'child_process',
  'internal/child_process',
  'dgram',
  'assert',
  'perf_hooks',
  // What the ES facade of node:crypto loads (its \`webcrypto\` getter) when an ES module imports it (src/core/builtin-require.ts).
  'internal/crypto/webcrypto',
];
/** Packages loaded only to call a model, compile a pattern, validate JSON Schema or measure an image. */
const HEAVY_PACKAGES = [
  '/node_modules/openai/',
  '/node_modules/@anthropic-ai/sdk/',
  '/node_modules/re2js/',
  '/node_modules/ajv/',
  '/node_modules/@opentelemetry/',
  '/node_modules/jiti/dist/babel.cjs',
  '/node_modules/image-size/',
];
/** Modules of dist/ that run, judge or write a run. */
const HEAVY_DIST = [
  /\/dist\/runner\/(?!exit-trap\.js$)/,
  /\/dist\/api\/run-eval\.js$/,
  /\/dist\/providers\/(node-fetch|buffered-response|rate-limit-fetch|settings|wires\/openai\/openai|wires\/anthropic\/anthropic|wires\/openai\/openai-batch|wires\/anthropic\/anthropic-batch)\.js$/,
  /\/dist\/judges\/(create-judge-service|judge-service|cache)\.js$/,
  /\/dist\/report\/(json|junit|html|terminal|multiplexer|case-store|github)\.js$/,
  /\/dist\/core\/results-schema\.js$/,
];

/** Everything heavy the run loaded, by kind (empty lists when it loaded none). */
function heavyLoaded(r: ProbedRun): { builtins: string[]; packages: string[]; dist: string[] } {
  const files = [...r.esm, ...r.cjs.map((p) => pathToFileURL(p).href)];
  return {
    builtins: r.builtins.filter((b) => HEAVY_BUILTINS.includes(b)),
    packages: files.filter((f) => HEAVY_PACKAGES.some((p) => f.includes(p))),
    dist: files.filter((f) => HEAVY_DIST.some((re) => re.test(f))),
  };
}

const NONE = { builtins: [], packages: [], dist: [] };

describe('start-up loads only what the command uses', () => {
  it('`agent-evals list` on the example suite lists its cases without loading the runner, HTTP, the SDKs, RE2 or the report writers', () => {
    // The first run fills the TypeScript cache; the measured one is warm, as every list after the first.
    runWithModuleProbe(CLI, ['list'], REPO_ROOT);
    const r = runWithModuleProbe(CLI, ['list'], REPO_ROOT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^support\/orders\/status-as-json {2}×1 {2}evals\/support\/orders\.eval\.ts:\d+ {2}→ support-agent/m);
    expect(r.stdout).toMatch(/\n\d+ cases, \d+ trials\n$/);
    // The start chunk ran as a script with a code cache (src/cli/code-cache.ts), once, for the CLI and the
    // public entry the config imports alike (one instance of its modules).
    expect(r.scripts).toHaveLength(1);
    expect(r.scripts[0]).toMatch(/\/dist\/chunks\/start-[\w-]+\.cjs$/);
    // The probe is not blind: it saw the config import the public entry, and zod and commander (joined into dist/).
    expect(r.esm.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(r.esm.some((u) => u.includes('/node_modules/zod/'))).toBe(true);
    expect(r.esm.some((u) => u.includes('/node_modules/commander/'))).toBe(true);
    // The CSV dataset's rows come from the parse cache (src/suite/parse-cache.ts): no CSV parser on a warm list.
    expect([...r.esm, ...r.cjs].filter((f) => f.includes('/node_modules/csv-parse/'))).toEqual([]);
    // Joined, commander needs no CommonJS loading (resolution, its files read, compiled with their doc comments).
    expect(r.cjs.filter((p) => p.includes('/node_modules/commander/'))).toEqual([]);
    // A warm TypeScript config and *.eval.ts run without jiti (src/suite/ts-warm-load.ts), its runtime and resolver.
    expect([...r.esm, ...r.cjs].filter((f) => f.includes('/node_modules/jiti/'))).toEqual([]);
    expect(r.builtins).toContain('fs');
    expect(heavyLoaded(r)).toEqual(NONE);
    // commander requires child_process at its top only to spawn executable subcommands (scripts/bundle.mjs);
    // jiti required assert and perf_hooks.
    expect(r.builtins.filter((b) => LIST_LAZY_BUILTINS.includes(b))).toEqual([]);
    // The warm TypeScript graphs run in one call V8 bounds (ts-warm-load.ts): the load watchdog, which asks
    // the inspector before its worker thread starts, never starts.
    expect(r.builtins).not.toContain('inspector');
  });

  it('`agent-evals list` of a YAML suite with a JSONL dataset and no CSV loads neither csv-parse nor jiti', () => {
    const dir = tempDir('agent-evals-list-');
    mkdirSync(join(dir, 'evals'));
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['evals/*.eval.yaml'], targets: { agent: async (input) => `Answer: ${input}` } };\n");
    writeFileSync(join(dir, 'evals', 'rows.jsonl'), '{"id": "r1", "input": "hi"}\n');
    writeFileSync(join(dir, 'evals', 'plain.eval.yaml'), 'suite: plain\ntarget: agent\ncases:\n  - id: c1\n    input: hello\n    assert: [{ type: contains, value: Answer }]\n');
    writeFileSync(join(dir, 'evals', 'rows.eval.yaml'), 'suite: rows\ntarget: agent\ndataset: rows.jsonl\nassert: [{ type: contains, value: Answer }]\n');
    const r = runWithModuleProbe(CLI, ['list'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^plain\/c1 .*\n(.|\n)*rows\/r1 /m);
    const files = [...r.esm, ...r.cjs];
    expect(files.filter((f) => f.includes('/node_modules/csv-parse/') || f.includes('/node_modules/jiti/'))).toEqual([]);
    expect(r.builtins.filter((b) => LIST_LAZY_BUILTINS.includes(b))).toEqual([]);
    expect(heavyLoaded(r)).toEqual(NONE);
  });

  it('`agent-evals list` of a suite with an image part loads image-size to check its dimensions (the probe sees it)', () => {
    const dir = tempDir('agent-evals-list-image-');
    mkdirSync(join(dir, 'evals'));
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['evals/*.eval.yaml'], targets: { agent: async () => 'a' } };\n");
    writeFileSync(join(dir, 'evals', 'pixel.png'), Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
    writeFileSync(
      join(dir, 'evals', 'image.eval.yaml'),
      'suite: image\ntarget: agent\ncases:\n  - id: c1\n    input: [{ type: text, text: hi }, { type: image, path: pixel.png }]\n    assert: [{ type: contains, value: a }]\n',
    );
    const r = runWithModuleProbe(CLI, ['list'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^image\/c1 /m);
    expect(heavyLoaded(r).packages.filter((f) => f.includes('/node_modules/image-size/')).length).toBeGreaterThan(0);
  });

  it('the public entry: a config that imports it loads none of that; evaluate().run() loads the runner when called', () => {
    const dir = tempDir('agent-evals-entry-');
    const entry = JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href);
    writeFileSync(
      join(dir, 'config.mjs'),
      `const { defineConfig, defineEval, agentJudge, promptJudge, evaluate } = await import(${entry});
defineConfig({ targets: { a: async () => 'x' } });
defineEval({ suite: 's', target: 'a', cases: [{ id: 'c', input: 'hi' }] });
agentJudge({ model: 'openai:gpt-5.4-mini' });
promptJudge(async () => '{"score": 1, "reason": "ok"}');
evaluate(async () => 'x').input('hi').expect({ type: 'contains', value: 'x' });
`,
    );
    const light = runWithModuleProbe(join(dir, 'config.mjs'), [], dir);
    expect(light.stderr).toBe('');
    expect(light.code).toBe(0);
    expect(light.esm.some((u) => u.endsWith('/dist/api/evaluate.js'))).toBe(true);
    expect(heavyLoaded(light)).toEqual(NONE);

    writeFileSync(
      join(dir, 'run.mjs'),
      `const { evaluate } = await import(${entry});
const result = await evaluate(async () => 'the answer is x').input('hi').expect({ type: 'contains', value: 'x' }).run();
console.log(result.passed);
`,
    );
    const ran = runWithModuleProbe(join(dir, 'run.mjs'), [], dir);
    expect(ran.stderr).toBe('');
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 0, stdout: 'true\n' });
    expect(ran.esm.some((u) => u.endsWith('/dist/runner/start-run.js'))).toBe(true);
    expect(ran.esm.some((u) => u.endsWith('/dist/api/run-eval.js'))).toBe(true);
  });

  it('`agent-evals run` of an OpenAI model target at a local http server loads neither https nor child_process; its chunks run with a code cache', async () => {
    const dir = tempDir('agent-evals-run-');
    // A checkout whose HEAD names its commit: the run reads it from the file, no git is spawned (runner/git-head.ts).
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'HEAD'), `${'0123456789'.repeat(4)}\n`);
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 0 } } } };\n");
    writeFileSync(join(dir, 'one.eval.yaml'), 'suite: one\ntarget: agent\ncases:\n  - id: c1\n    input: hello\n    assert: [{ type: contains, value: Answer }]\n');
    const fake = await startFakeOpenAI({ script: () => ({ text: 'Answer: hi' }) });
    try {
      const r = await runWithModuleProbeAsync(CLI, ['run'], dir, { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(fake.count).toBe(1);
      expect(r.builtins).toContain('http');
      // Loaded on first use: an https URL (providers/node-fetch.ts), a command target (targets/process-group.ts), git asked
      // (runner/git-head.ts). tls is not in the list: the SDK's `Headers` loads Node's undici, whose http2 client loads it.
      expect(r.builtins.filter((b) => ['https', 'child_process', 'internal/child_process'].includes(b))).toEqual([]);
      expect(r.scripts.map((f) => basename(f).replace(/-[\w-]{8}\.cjs$/, '')).sort()).toEqual(['openai', 'openai', 'run', 'run-shared', 'start']);
    } finally {
      await fake.close();
    }
  });
});
