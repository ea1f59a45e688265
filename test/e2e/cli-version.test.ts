/**
 * `agent-evals --version` is answered by bin/agent-evals.js before anything of dist/ loads (its
 * start-up is Node's own), with the same output commander gives when it answers the flag among
 * other arguments. A resolve hook in the child records every file module the process loads.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Hooks (run on Node's loader thread) that append each resolved file: URL to the file named by their data. */
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(log, r.url + '\\n');
  return r;
}`;

function cliWithProbe(args: string[]): { code: number | null; stdout: string; stderr: string; loaded: string[] } {
  const log = join(tempDir(), 'loaded.txt');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)}, { data: ${JSON.stringify(log)} });`;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let loaded: string[] = [];
  try {
    loaded = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // Nothing loaded through the hooks.
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
}

describe('agent-evals --version', () => {
  it.each(['--version', '-V'])('%s prints the package version and loads no module of dist/', (flag) => {
    const r = cliWithProbe([flag]);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(
      r.loaded.some((u) => u.endsWith('/bin/agent-evals.js')),
      'the probe saw the CLI itself',
    ).toBe(true);
    expect(r.loaded.filter((u) => u.includes('/dist/'))).toEqual([]);
  });

  it('among other arguments commander answers it, through dist/, with the same output', () => {
    const r = cliWithProbe(['--version', '--version']);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    // The probe sees dist/ when it loads: its silence above is not blindness.
    expect(r.loaded.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
  });
});
