/**
 * `agent-evals --version` is answered by bin/agent-evals.js before anything of dist/ loads (its
 * start-up is Node's own), with the same output commander gives when it answers the flag among
 * other arguments. A probe in the child (test/support/module-probe.ts) records every file module it loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runWithModuleProbe } from '../support/module-probe.js';

afterAll(removeTempDirs);

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function cliWithProbe(args: string[]): { code: number | null; stdout: string; stderr: string; loaded: string[] } {
  const r = runWithModuleProbe(CLI, args, REPO_ROOT);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, loaded: r.esm };
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
