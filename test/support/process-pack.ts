/**
 * The package as `npm pack` makes it, packed once for every test file that reads the tarball: npm
 * spends seconds of CPU on a pack. The tarball and npm's JSON report are kept in a temp folder named
 * for a hash of what goes into the package, so a changed build packs anew and no test depends on
 * which file packed first.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { takeLock } from '../../src/report/file-lock.js';
import { REPO_ROOT } from './cli.js';

const run = promisify(execFile);

export interface Packed {
  /** The .tgz file. */
  tarball: string;
  /** The paths npm put in it, relative to the package root. */
  files: string[];
}

/** What npm packs: package.json's `files`, plus the files npm always adds. */
const PACKED = ['package.json', 'README.md', 'LICENSE', 'bin', 'dist', 'schemas'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

function contentKey(): string {
  const hash = createHash('sha256');
  for (const file of PACKED.flatMap((p) => filesUnder(join(REPO_ROOT, p)))) {
    hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let packing: Promise<Packed> | undefined;

/** The package packed (`npm pack --ignore-scripts`, as `npm publish` packs it: no pack lifecycle scripts exist). */
export function packedPackage(): Promise<Packed> {
  packing ??= packOnce();
  return packing;
}

async function packOnce(): Promise<Packed> {
  const name = `agent-evals-packed-${contentKey()}`;
  const dir = join(tmpdir(), name);
  const report = join(dir, 'pack.json');
  // One packer at a time across the test workers: the others wait for its folder to appear.
  const lock = `${dir}.lock`;
  while (!existsSync(report)) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(report)) await packInto(dir);
      } finally {
        rmSync(lock, { force: true });
      }
    } else await appeared(name, `${name}.lock`);
  }
  const [pack] = JSON.parse(readFileSync(report, 'utf8')) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(dir, pack!.filename), files: pack!.files.map((f) => f.path) };
}

/** Packed beside, then moved into place whole: a reader never sees a half-written folder. */
async function packInto(dir: string): Promise<void> {
  const fresh = mkdtempSync(join(tmpdir(), 'agent-evals-packing-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', fresh], { cwd: REPO_ROOT, env: { ...process.env, npm_config_loglevel: 'silent' } });
  writeFileSync(join(fresh, 'pack.json'), stdout);
  renameSync(fresh, dir);
}

/** Resolves at the next change to either entry of the temp folder (the packed folder appearing, the lock going). */
function appeared(...names: string[]): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(tmpdir(), (_event, name) => {
      if (name && names.includes(name)) done();
    });
    const done = () => {
      watcher.close();
      resolve();
    };
    // Changed before the watch began.
    if (existsSync(join(tmpdir(), names[0]!)) || !existsSync(join(tmpdir(), names[1]!))) done();
  });
}
