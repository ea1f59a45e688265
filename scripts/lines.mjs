#!/usr/bin/env node
// The newest framework line (lines/newest.json): the repository copied to .lines/newest with that file's
// devDependencies and overrides over the root package.json, installed from lines/newest.lock.json, and
// its tests run on Node 22 and 24 (Node's binaries from the npm registry, installed with it). The root
// project stays the previous line on Node 20, so the same tests run on both lines.
//
//   node scripts/lines.mjs test [--node 22|24]... [vitest files or folders...]
//   node scripts/lines.mjs lock      rewrite lines/newest.lock.json after package.json or lines/newest.json changed
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const LINE = join(ROOT, 'lines/newest.json');
const LOCK = join(ROOT, 'lines/newest.lock.json');
const COPY = join(ROOT, '.lines/newest');
const NODES = { 22: 'node22', 24: 'node24' };

/**
 * What runs on the newest line: the framework adapters and examples, the OpenTelemetry capture and
 * import, a user's openai 7 through ctx.fetch, and the CLI end to end where the process itself is the
 * subject (spawned on the line's Node: start, exit codes and signals, process groups, isolated workers,
 * file watching, the proxy, the package's bin).
 */
export const LINE_TESTS = [
  'test/adapters',
  'test/examples',
  'test/targets/otel-target.test.ts',
  'test/targets/user-openai-fetch.test.ts',
  ...[
    'cli-run',
    'cli-version',
    'cli-init',
    'cli-import',
    'cli-import-ai-sdk-otel',
    'cli-import-instrumentations',
    'cli-interrupt',
    'cli-interrupted',
    'cli-resume',
    'cli-shard',
    'cli-isolate',
    'command-process-group',
    'cli-watch',
    'cli-proxy',
    'cli-proxy-function-target',
    'cli-live-example',
    'agent-judge-live-examples',
    'cli-user-reporter',
  ].map((name) => `test/e2e/${name}.test.ts`),
];

/** The root package.json with the line's devDependencies and overrides over it. */
function linePackageJson() {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const line = JSON.parse(readFileSync(LINE, 'utf8'));
  return { ...root, devDependencies: { ...root.devDependencies, ...line.devDependencies }, overrides: { ...root.overrides, ...line.overrides } };
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    process.stderr.write(`lines: \`${[cmd, ...args].join(' ')}\` failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

/** The working files (tracked, and new ones not ignored), so uncommitted work is tested too. */
function workingFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 << 20 });
  return [...new Set(out.toString('utf8').split('\0').filter(Boolean))].filter((f) => !f.startsWith('.lines/') && existsSync(join(ROOT, f)));
}

function prepare() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stderr.write(`lines: the newest line installs Node's Linux x64 binaries; this machine is ${process.platform}-${process.arch}\n`);
    process.exit(2);
  }
  const pkg = `${JSON.stringify(linePackageJson(), null, 2)}\n`;
  const lock = readFileSync(LOCK, 'utf8');
  const stamp = join(COPY, 'node_modules/.line-stamp');
  const installed = existsSync(stamp) && readFileSync(stamp, 'utf8') === pkg + lock;
  // Everything but node_modules is replaced, so a file deleted here is gone there too.
  if (existsSync(COPY)) for (const entry of readdir(COPY)) if (entry !== 'node_modules') rmSync(join(COPY, entry), { recursive: true, force: true });
  for (const file of workingFiles()) {
    mkdirSync(dirname(join(COPY, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(COPY, file));
  }
  writeFileSync(join(COPY, 'package.json'), pkg);
  writeFileSync(join(COPY, 'package-lock.json'), lock);
  if (!installed) {
    process.stderr.write('lines: installing the newest line (npm ci in .lines/newest)\n');
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: COPY, stdio: 'inherit' });
    if (ci.status !== 0) {
      process.stderr.write('lines: npm ci failed; when package.json or lines/newest.json changed, run `npm run lines:lock` and commit lines/newest.lock.json\n');
      process.exit(ci.status || 1);
    }
    writeFileSync(stamp, pkg + lock);
  }
  linkUserPackages();
}

/**
 * A user's project on this line has its own copy of a package where agent-evals' own differs (openai 7
 * beside agent-evals' openai 6, which holds node_modules/openai here): lines/newest.json `links` points
 * a folder the examples resolve from at the copy the line installed, the one its framework uses too, as
 * npm dedupes it in a user's project (one copy, so TypeScript sees one class).
 */
function linkUserPackages() {
  const { links = {} } = JSON.parse(readFileSync(LINE, 'utf8'));
  for (const [at, to] of Object.entries(links)) {
    if (!existsSync(join(COPY, to, 'package.json'))) {
      process.stderr.write(`lines: lines/newest.json links ${at} to ${to}, which the install does not hold; point it at the copy the lock installs\n`);
      process.exit(1);
    }
    mkdirSync(dirname(join(COPY, at)), { recursive: true });
    rmSync(join(COPY, at), { recursive: true, force: true });
    symlinkSync(join(COPY, to), join(COPY, at), 'dir');
  }
}

function readdir(dir) {
  return execFileSync('ls', ['-A', dir]).toString('utf8').split('\n').filter(Boolean);
}

function nodeBin(version) {
  return join(COPY, 'node_modules', NODES[version], 'bin/node');
}

function test(args) {
  const versions = [];
  const files = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--node') {
      const v = args[++i];
      if (!(v in NODES)) {
        process.stderr.write(`lines: --node takes ${Object.keys(NODES).join(' or ')}\n`);
        process.exit(2);
      }
      versions.push(v);
    } else files.push(args[i]);
  }
  prepare();
  for (const version of versions.length ? versions : Object.keys(NODES)) {
    const node = nodeBin(version);
    // Spawned CLIs and `node` on PATH are this line's Node, as in a project that runs on it.
    const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
    const opts = { cwd: COPY, env };
    process.stderr.write(`lines: Node ${execFileSync(node, ['--version']).toString().trim()}, newest framework majors\n`);
    run(node, ['scripts/page-bundle.mjs'], opts);
    run(node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], opts);
    // The framework examples are typed against this line's majors; checked on a whole-line run.
    if (!files.length) run(node, ['node_modules/typescript/bin/tsc', '-p', 'examples/tsconfig.json'], opts);
    run(node, ['node_modules/vitest/vitest.mjs', 'run', ...(files.length ? files : LINE_TESTS)], opts);
  }
}

function lock() {
  const dir = mkdtempSync(join(tmpdir(), 'agent-evals-line-'));
  try {
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(linePackageJson(), null, 2)}\n`);
    if (existsSync(LOCK)) copyFileSync(LOCK, join(dir, 'package-lock.json'));
    run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    copyFileSync(join(dir, 'package-lock.json'), LOCK);
    process.stderr.write(`lines: wrote ${LOCK}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'test') test(rest);
else if (command === 'lock') lock();
else {
  process.stderr.write('usage: node scripts/lines.mjs test [--node 22|24]... [files...] | lock\n');
  process.exit(2);
}
