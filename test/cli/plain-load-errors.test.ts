/**
 * Config and eval files of the wrong shape or encoding, through the built CLI's `main` in-process
 * (`list`): each is exit 2 with one plain message naming the file, not a schema issue about a key
 * named `default` or a parser's complaint about a NUL byte.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, runCli, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

const EVAL = 'suite: s\ntarget: t\ncases:\n  - { id: a, input: q, assert: [{ type: contains, value: q }] }\n';

it('a config exporting null, only a named export, or a number; a UTF-16 eval file: exit 2, one plain line naming the file', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ 'evals.config.mjs': 'export default null;\n' }, "agent-evals: evals.config.mjs: the config's default export is null: a config is its default export: `export default defineConfig({ … })`"],
    [{ 'evals.config.mjs': 'export const x = 1;\n' }, 'agent-evals: evals.config.mjs: the config has no default export (it exports x): a config is its default export'],
    [{ 'evals.config.mjs': 'export default 42;\n' }, "agent-evals: evals.config.mjs: the config's default export is a number, not an object"],
  ];
  for (const [files, message] of cases) {
    const dir = writeProject({ ...files, 'evals/s.eval.yaml': EVAL });
    const res = await runCliInProcess(['list'], { cwd: dir, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).not.toMatch(STACK_FRAME);
  }
  for (const encoding of ['utf16le', 'utf16be'] as const) {
    const dir = writeProject({ 'evals.config.mjs': 'export default { targets: { t: (i) => i } };\n' });
    const le = Buffer.from('\ufeff' + EVAL, 'utf16le');
    writeFileSync(join(dir, 'u.eval.yaml'), encoding === 'utf16le' ? le : le.swap16());
    const res = await runCliInProcess(['list', 'u.eval.yaml'], { cwd: dir, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/^agent-evals: u\.eval\.yaml: the file is UTF-16: save it as UTF-8/);
  }
});

it('a TypeScript config or eval file exporting null, only a named export, or a number: the same plain line, compiled by jiti or read from its cache', async () => {
  const config = 'export default { targets: { t: (i) => i } };\n';
  const cases: [Record<string, string>, string][] = [
    [{ 'evals.config.ts': 'export const x = 1;\n' }, 'agent-evals: evals.config.ts: the config has no default export (it exports x): a config is its default export'],
    [{ 'evals.config.ts': 'export default 42;\n' }, "agent-evals: evals.config.ts: the config's default export is a number, not an object"],
    [{ 'evals.config.mjs': config, 'evals/b.eval.ts': 'export const x = 1;\n' }, 'agent-evals: evals/b.eval.ts: the eval file has no default export (it exports x): an eval file default-exports'],
    [{ 'evals.config.mjs': config, 'evals/b.eval.ts': 'export default 42;\n' }, "agent-evals: evals/b.eval.ts: the eval file's default export is a number, not an object"],
  ];
  // A null default export is read from jiti's module cache, which only a first load in a fresh
  // process has (in-process runs load afresh, as --watch does): those two are spawned, as a user runs them.
  const nulls: [Record<string, string>, string][] = [
    // jiti alone throws "Cannot read properties of null (reading 'then')" for a null default export.
    [{ 'evals.config.ts': 'export default null;\n' }, "agent-evals: evals.config.ts: the config's default export is null: a config is its default export: `export default defineConfig({ … })`"],
    [
      { 'evals.config.mjs': config, 'evals/b.eval.ts': 'export default null;\n' },
      "agent-evals: evals/b.eval.ts: the eval file's default export is null: an eval file default-exports `defineEval({ … })` or an array of them",
    ],
  ];
  for (const [[files, message], runs] of [...cases.map((c) => [c, runCliInProcess] as const), ...nulls.map((c) => [c, runCli] as const)]) {
    const dir = writeProject({ ...files, 'evals/s.eval.yaml': EVAL });
    // Twice: the first load compiles, the second reads jiti's on-disk cache.
    for (let load = 0; load < 2; load++) {
      const res = await runs(['list'], { cwd: dir, timeoutMs: 60_000 });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).not.toMatch(STACK_FRAME);
    }
  }
  // Loaded afresh (--watch, or in-process): jiti keeps no module cache to read the null from, and says so in words.
  const dir = writeProject({ 'evals.config.ts': 'export default null;\n', 'evals/s.eval.yaml': EVAL });
  const res = await runCliInProcess(['list'], { cwd: dir, timeoutMs: 60_000 });
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr.trim()).toBe("agent-evals: evals.config.ts: cannot load: a default export is null (this module's, or that of a module it imports)");
});

it('a UTF-16 dataset (JSONL, CSV, large enough to stream), TypeScript eval file, config (JS or TS), results file for report, or import input: exit 2, one plain line naming that file', async () => {
  const utf16 = (text: string, be = false): Buffer => {
    const le = Buffer.from('\ufeff' + text, 'utf16le');
    return be ? le.swap16() : le;
  };
  const config = 'export default { targets: { t: (i) => i } };\n';
  const suite = (dataset: string) => `suite: s\ntarget: t\ndataset: ${dataset}\nassert: [{ type: contains, value: q }]\n`;
  // Small JSONL and CSV are read whole; past 4 MB a JSONL streams (suite/dataset-read.ts): each path checks.
  const jsonlRow = '{"id":"a","input":"q"}\n';
  const tries: { name: string; bytes: Buffer; args: string[]; extra?: Record<string, string>; message: RegExp }[] = [
    { name: 'rows.jsonl', bytes: utf16(jsonlRow), args: ['list'], extra: { 'evals/d.eval.yaml': suite('../rows.jsonl') }, message: /^agent-evals: rows\.jsonl: the file is UTF-16: save it as UTF-8/ },
    {
      name: 'rows.csv',
      bytes: utf16('id,input\na,q\n', true),
      args: ['list'],
      extra: { 'evals/d.eval.yaml': suite('../rows.csv') },
      message: /^agent-evals: rows\.csv: the file is UTF-16: save it as UTF-8/,
    },
    {
      name: 'big.jsonl',
      bytes: utf16(jsonlRow.repeat(100_000)),
      args: ['list'],
      extra: { 'evals/d.eval.yaml': suite('../big.jsonl') },
      message: /^agent-evals: big\.jsonl: the file is UTF-16: save it as UTF-8/,
    },
    { name: 'evals/b.eval.ts', bytes: utf16('export default null;\n'), args: ['list'], message: /^agent-evals: evals\/b\.eval\.ts: the file is UTF-16: save it as UTF-8/ },
    { name: 'evals.config.mjs', bytes: utf16(config), args: ['list'], message: /^agent-evals: evals\.config\.mjs: the file is UTF-16: save it as UTF-8/ },
    { name: 'other.config.ts', bytes: utf16(config, true), args: ['list', '--config', 'other.config.ts'], message: /^agent-evals: other\.config\.ts: the file is UTF-16: save it as UTF-8/ },
    { name: 'results.json', bytes: utf16('{"schemaVersion":1}'), args: ['report', 'results.json'], message: /^agent-evals: results\.json: the file is UTF-16: save it as UTF-8/ },
    { name: 'trace.json', bytes: utf16('{"resourceSpans":[]}'), args: ['import', 'trace.json'], message: /^agent-evals: trace\.json: the file is UTF-16: save it as UTF-8/ },
  ];
  for (const t of tries) {
    const dir = writeProject({ 'evals.config.mjs': config, 'evals/s.eval.yaml': EVAL, ...t.extra });
    writeFileSync(join(dir, t.name), t.bytes);
    const res = await runCliInProcess(t.args, { cwd: dir, timeoutMs: 60_000 });
    expect(res.code, `${t.name}: ${res.stderr}`).toBe(2);
    expect(res.stderr, t.name).toMatch(t.message);
    expect(res.stderr.trim().split('\n'), t.name).toHaveLength(1);
  }
});
