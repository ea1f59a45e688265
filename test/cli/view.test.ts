/**
 * `agent-evals view` apart from its pages (those are tested in Chromium, test/report/view-browser.test.ts):
 * bad input is exit 2 before anything is served, the run list's exit code and selection are read from a
 * run's results as the run decided them, and a browser is opened only where one can be.
 */
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import type { Results, Summary } from '../../src/core/results-schema.js';
import { exitCodeOf, selectionOf } from '../../src/cli/view-runs.js';
import { browserCommand } from '../../src/cli/open-browser.js';

afterAll(removeTempDirs);

describe('agent-evals view: bad input is exit 2 before anything is served', () => {
  it('a folder that does not exist (given, or the default), a folder and --config both, a port in use', async () => {
    const dir = tempDir();
    const missing = await runCliInProcess(['view', 'no-such-folder', '--no-open'], { cwd: dir });
    expect([missing.code, missing.stdout]).toEqual([2, '']);
    expect(missing.stderr).toMatch(/no-such-folder: \[dir\]: no such folder/);
    // No folder given: the config's outputDir (here the default, not made yet by any run).
    const none = await runCliInProcess(['view', '--no-open'], { cwd: dir });
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toMatch(/\.agent-evals: \[dir\]: no such folder/);

    mkdirSync(join(dir, 'out'));
    const both = await runCliInProcess(['view', 'out', '--config', 'evals.config.mjs', '--no-open'], { cwd: dir });
    expect([both.code, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toMatch(/--config: give the folder or --config/);

    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const taken = await runCliInProcess(['view', 'out', '--port', String(port), '--no-open'], { cwd: dir });
      expect([taken.code, taken.stdout]).toEqual([2, '']);
      expect(taken.stderr).toMatch(new RegExp(`--port: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });
});

/** The part of a run's results the list reads for its exit code. */
function ran(over: { argv?: string[]; interrupted?: boolean; failed?: number; scored?: number; failures?: string[]; shardStrict?: boolean }): Pick<Results, 'run' | 'summary'> {
  const summary = { cases: { total: 3, passed: 3, failed: over.failed ?? 0, scored: over.scored ?? 0, skipped: 0 }, failures: over.failures ?? [] } as unknown as Summary;
  const shard =
    over.shardStrict === undefined
      ? {}
      : { shard: { index: 1, total: 2, config: 'c', plan: { cases: 3, trials: 3, hash: 'h' }, positions: [0], exit: { strict: over.shardStrict, failOnFlaky: false } } };
  return { run: { id: 'r', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, gitSha: null, argv: over.argv ?? ['run'], config: null, interrupted: over.interrupted ?? false, ...shard }, summary };
}

describe('the exit code a run list shows', () => {
  it('is the run’s own rule: 130 interrupted, 1 a failed case or gate, a scored case only under --strict', () => {
    expect(exitCodeOf(ran({}))).toBe(0);
    expect(exitCodeOf(ran({ interrupted: true, failed: 1 }))).toBe(130);
    expect(exitCodeOf(ran({ failed: 1 }))).toBe(1);
    // A failed gate or comparison is one of the summary's failures.
    expect(exitCodeOf(ran({ failures: ['1 regression (at most 0 allowed)'] }))).toBe(1);
    expect(exitCodeOf(ran({ scored: 1 }))).toBe(0);
    expect(exitCodeOf(ran({ scored: 1, argv: ['run', '--strict'] }))).toBe(1);
    // The last of --strict / --no-strict wins, as commander reads them.
    expect(exitCodeOf(ran({ scored: 1, argv: ['run', '--strict', '--no-strict'] }))).toBe(0);
    // A shard keeps what the unsharded run's exit depends on.
    expect(exitCodeOf(ran({ scored: 1, shardStrict: true }))).toBe(1);
  });
});

describe('the selection a run list shows', () => {
  it('keeps the flags that chose part of the plan, in order, with their values', () => {
    expect(selectionOf(['run', '--filter', 'shop/*', '-j', '4', '-t', 'smoke', '--exclude-tag=slow', '--max-cost', '1', '--repeat', '3'])).toBe('--filter shop/* -t smoke --exclude-tag=slow');
    expect(selectionOf(['run', '-c', 'other.config.ts', '--shard', '1/2'])).toBe('');
  });
});

describe('whether view opens a browser', () => {
  it('never in CI, never when stdout is not a terminal, on Linux only with a display', () => {
    expect(browserCommand({ CI: 'true', DISPLAY: ':0' }, 'linux', true)).toEqual({ none: 'CI is set' });
    expect(browserCommand({ DISPLAY: ':0' }, 'linux', false)).toEqual({ none: 'stdout is not a terminal' });
    expect(browserCommand({}, 'linux', true)).toMatchObject({ none: expect.stringMatching(/no display/) });
    expect(browserCommand({ DISPLAY: ':0' }, 'linux', true)).toEqual({ command: 'xdg-open', args: [] });
    expect(browserCommand({ WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd', true)).toEqual({ command: 'xdg-open', args: [] });
    expect(browserCommand({}, 'darwin', true)).toEqual({ command: 'open', args: [] });
    expect(browserCommand({}, 'win32', true)).toEqual({ command: 'cmd', args: ['/c', 'start', '""'] });
  });
});
