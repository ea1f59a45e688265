/**
 * The terminal's closing `wrote <path>` lines: one per file a reporter finished writing, relative
 * to the working directory inside it; a reporter that failed names nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitReporter } from '../../src/report/junit.js';
import { wroteLine, wroteReporter } from '../../src/report/wrote-lines.js';
import type { Reporter } from '../../src/report/reporter.js';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

const EVALS = `suite: s\ntarget: agent\ncases:\n  - { id: c, input: hi, assert: [{ type: contains, value: ok }] }\n`;

describe('wroteLine', () => {
  it('shows a path inside the working directory relative to it, any other whole', () => {
    expect(stripAnsi(wroteLine('/w/p/out/junit.xml', '/w/p'))).toBe(`wrote ${join('out', 'junit.xml')}`);
    expect(stripAnsi(wroteLine('/elsewhere/r.json', '/w/p'))).toBe('wrote /elsewhere/r.json');
    expect(stripAnsi(wroteLine('/w/p/\x1b[2Jx.xml', '/w/p'))).toBe('wrote \\x1b[2Jx.xml');
  });
});

describe('wroteReporter', () => {
  it('names the files written by reporters that finished, not one whose write failed', async () => {
    let out = '';
    const run = await runInProcess({
      files: { 's.eval.yaml': EVALS },
      config: { targets: { agent: () => 'ok' } },
      reporters: (dir) => {
        mkdirSync(join(dir, 'a-folder'));
        const written: Reporter[] = [junitReporter({ path: join(dir, 'junit.xml') }), { ...junitReporter({ path: join(dir, 'a-folder') }), name: 'broken' }];
        return [...written, wroteReporter({ out: { write: (t: string) => (out += t) }, cwd: dir, reporters: written })];
      },
    });
    expect(run.problems.join('\n')).toContain('reporter "broken" failed in onEnd');
    expect(stripAnsi(out)).toBe('wrote junit.xml\n');
  });

  it('does not name a quiet path (the results document every run leaves), but names the others', () => {
    let out = '';
    const wrote = (paths: string[]): Reporter => ({ written: () => paths });
    const reporter = wroteReporter({
      out: { write: (t: string) => (out += t) },
      cwd: '/w/p',
      reporters: [wrote(['/w/p/.agent-evals/results.json', '/w/p/.agent-evals/baselines/main.json']), wrote(['/w/p/junit.xml'])],
      quiet: ['/w/p/.agent-evals/results.json'],
    });
    void reporter.onEnd?.({} as never);
    expect(stripAnsi(out)).toBe(`wrote ${join('.agent-evals', 'baselines', 'main.json')}\nwrote junit.xml\n`);
  });
});
