/**
 * The start chunk runs with a V8 code cache (src/cli/code-cache.ts, scripts/cached-script.mjs): the
 * first `list` writes it when it ends, the next ones use it and leave it be (a cache V8 rejected or a
 * damaged file would be written again), and a damaged or foreign cache is replaced without changing
 * what the command prints. So do the chunks `run` loads before its first request (its own and the
 * OpenAI wire's). Runs a copy of the built package (dist/, bin/) in a project of its own, so its
 * cache is that project's: `npm run build` first.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

afterAll(removeTempDirs);

/** A project with the package installed as a copy, every other dependency linked, and a two-case YAML suite. */
function project(): Project {
  const dir = tempDir('agent-evals-code-cache-');
  const pkg = join(dir, 'node_modules', 'agent-evals');
  mkdirSync(pkg, { recursive: true });
  for (const part of ['dist', 'bin', 'package.json']) cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'agent-evals') continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "type": "module" }\n');
  writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { agent: async (input) => `Answer: ${input}` } };\n");
  writeFileSync(
    join(dir, 'hello.eval.yaml'),
    [
      'suite: hello',
      'target: agent',
      'cases:',
      '  - { id: one, input: hi, assert: [{ type: contains, value: Answer }] }',
      '  - { id: two, input: there, assert: [{ type: contains, value: Answer }] }',
      '',
    ].join('\n'),
  );
  const script = readdirSync(join(pkg, 'dist', 'chunks')).find((f) => /^start-[\w-]+\.cjs$/.test(f));
  if (script === undefined) throw new Error('no dist/chunks/start-*.cjs: run `npm run build`');
  return { dir, cli: join(pkg, 'bin', 'agent-evals.js'), script, cacheDir: join(dir, 'node_modules', '.cache', 'agent-evals', 'code') };
}

interface Project {
  dir: string;
  cli: string;
  /** The start chunk's script (chunks/start-<hash>.cjs), which names its cache files. */
  script: string;
  cacheDir: string;
}

/** The cache files of the start chunk in the project (one per Node version and V8 flags). */
function cacheFiles(p: Project): string[] {
  return existsSync(p.cacheDir)
    ? readdirSync(p.cacheDir)
        .filter((f) => f.startsWith(`${p.script}-`) && f.endsWith('.bin'))
        .map((f) => join(p.cacheDir, f))
    : [];
}

/** The one cache file `list` wrote. */
function listCache(p: Project): string {
  const files = cacheFiles(p);
  expect(files).toHaveLength(1);
  return files[0]!;
}

function list(p: Project): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [p.cli, 'list'], { cwd: p.dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `run` by the project's copy of the CLI, to its end. Not spawnSync: a fake server answering its
 * requests runs in this process.
 */
function run(p: Project, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [p.cli, 'run'], { cwd: p.dir, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The project's cache files, sorted, each with its chunk's name (without the build's hash: two chunks may share a name). */
function chunkCaches(p: Project): { chunk: string; file: string }[] {
  return (existsSync(p.cacheDir) ? readdirSync(p.cacheDir).sort() : []).flatMap((f) => {
    const chunk = /^([\w-]+)-[\w-]{8}\.cjs-.*\.bin$/.exec(f)?.[1];
    return chunk === undefined ? [] : [{ chunk, file: join(p.cacheDir, f) }];
  });
}

/** The case lines of `run`'s terminal output (its timings left out). */
const caseLines = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => /hello\/(one|two)/.test(l))
    .map((l) => l.replace(/\d+(\.\d+)?\s?m?s\b/g, ''));

/** The file's identity: a rewrite (temp file renamed over it) gives a new inode. */
const inode = (file: string): number => statSync(file).ino;

// A hang guard, not a speed bound: each test spawns the CLI three or four times in a row, and with the
// two cores loaded far past busy one spawn took 20 s.
describe.concurrent('the start chunk’s code cache', { timeout: 180_000 }, () => {
  it('the first list writes it, the next ones use it as it is', () => {
    const p = project();
    const first = list(p);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^hello\/one .*\nhello\/two .*\n2 cases, 2 trials\n$/);
    const cacheFile = listCache(p);
    const written = readFileSync(cacheFile);
    const ino = inode(cacheFile);

    // Taken: not written again (V8 accepted it; a rejected cache is replaced when the process ends).
    for (let i = 0; i < 2; i++) {
      const again = list(p);
      expect({ ...again }).toEqual(first);
      expect(inode(cacheFile)).toBe(ino);
    }
    expect(readFileSync(cacheFile).equals(written)).toBe(true);
    expect(cacheFiles(p)).toEqual([cacheFile]);
  });

  it('a damaged cache file is not used, and is replaced; what list prints is the same', () => {
    const p = project();
    const first = list(p);
    expect(first.code, first.stderr).toBe(0);
    const cacheFile = listCache(p);
    const good = readFileSync(cacheFile);
    // Bytes flipped in the middle: V8 itself would take it (it checks sizes and versions, not the code).
    const damaged = Buffer.from(good);
    for (let i = 0, at = Math.floor(damaged.length / 2); i < 64; i++, at += 97) damaged.writeUInt8(damaged.readUInt8(at) ^ 0xff, at);
    writeFileSync(cacheFile, damaged);

    expect(list(p)).toEqual(first);
    const rewritten = readFileSync(cacheFile);
    expect(rewritten.equals(damaged)).toBe(false);
    const ino = inode(cacheFile);
    expect(list(p)).toEqual(first);
    expect(inode(cacheFile)).toBe(ino);
  });

  it('a whole file V8 rejects (not a code cache of this chunk) is replaced; what list prints is the same', () => {
    const p = project();
    const first = list(p);
    expect(first.code, first.stderr).toBe(0);
    // Our digest matches, so V8 is asked, and refuses it.
    const foreign = Buffer.from('not a V8 code cache, but whole'.repeat(100));
    const cacheFile = listCache(p);
    writeFileSync(cacheFile, Buffer.concat([createHash('sha1').update(foreign).digest(), foreign]));
    const ino = inode(cacheFile);

    expect(list(p)).toEqual(first);
    expect(inode(cacheFile)).not.toBe(ino);
    const replaced = inode(cacheFile);
    expect(list(p)).toEqual(first);
    expect(inode(cacheFile)).toBe(replaced);
  });

  it('the CLI and a library use (other V8 flags) keep a cache each, instead of rejecting and rewriting each other’s', () => {
    const p = project();
    expect(list(p).code).toBe(0);
    const cli = listCache(p);
    const ino = inode(cli);
    // A script importing the public entry, as a test file does: no CLI launcher, so no heap flags (heap-growth.ts).
    writeFileSync(join(p.dir, 'use.mjs'), "import { defineConfig } from 'agent-evals';\nconsole.log(typeof defineConfig);\n");
    const use = () => spawnSync(process.execPath, ['use.mjs'], { cwd: p.dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(use().stdout).toBe('function\n');
    const files = cacheFiles(p);
    expect(files).toHaveLength(2);
    const library = files.find((f) => f !== cli)!;
    const libraryIno = inode(library);
    expect(list(p).code).toBe(0);
    expect(use().stdout).toBe('function\n');
    expect([inode(cli), inode(library)]).toEqual([ino, libraryIno]);
  });

  it('`run` runs its own chunks with a code cache too: the first run writes one per chunk, the next uses them as they are', async () => {
    const p = project();
    const first = await run(p);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const written = chunkCaches(p);
    expect(written.map((w) => w.chunk).sort()).toEqual(['run', 'run-shared', 'start']);
    const inodes = written.map((w) => inode(w.file));
    const again = await run(p);
    expect({ code: again.code, stderr: again.stderr, cases: caseLines(again.stdout) }).toEqual({ code: 0, stderr: '', cases: caseLines(first.stdout) });
    expect(caseLines(first.stdout)).toHaveLength(2);
    expect(chunkCaches(p).map((w) => inode(w.file))).toEqual(inodes);
  });

  it('a run with an OpenAI model target also caches the OpenAI wire and its SDK', async () => {
    const p = project();
    writeFileSync(join(p.dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 0 } } } };\n");
    const fake = await startFakeOpenAI({ script: () => ({ text: 'Answer: yes' }) });
    try {
      const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
      const first = await run(p, env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(fake.count).toBe(2);
      const written = chunkCaches(p);
      // The wire (src/providers/openai.ts) and the SDK joined into dist/: rolldown names both chunks openai.
      expect(written.map((w) => w.chunk).filter((c) => !['run', 'run-shared', 'start'].includes(c))).toEqual(['openai', 'openai']);
      const inodes = written.map((w) => inode(w.file));
      expect((await run(p, env)).code).toBe(0);
      expect(chunkCaches(p).map((w) => inode(w.file))).toEqual(inodes);
    } finally {
      await fake.close();
    }
  });

  it('caches of older builds are removed when one is written, the newest kept of each chunk', () => {
    const p = project();
    mkdirSync(p.cacheDir, { recursive: true });
    // Names as the build gives them: the chunk, an 8-character hash, Node and the flags.
    const old = (chunk: string) => Array.from({ length: 8 }, (_, i) => join(p.cacheDir, `${chunk}-0ldHash${i}.cjs-${process.version}-${process.platform}-${process.arch}-lib.bin`));
    const oldStart = old('start');
    const oldRun = old('run');
    [...oldStart, ...oldRun].forEach((f, i) => {
      writeFileSync(f, 'old');
      utimesSync(f, 1_000_000 + (i % 8), 1_000_000 + (i % 8)); // 1970: written long before this run
    });
    expect(list(p).code).toBe(0);
    const left = readdirSync(p.cacheDir).sort();
    // KEPT_CACHES = 6 per chunk (src/cli/code-cache.ts): this build's start cache and the five newest
    // old ones of the start chunk; the six newest of the other chunk, not counted against the start chunk's.
    expect(left).toEqual([...oldStart.slice(3).map((f) => basename(f)), ...oldRun.slice(2).map((f) => basename(f)), basename(listCache(p))].sort());
  });
});
