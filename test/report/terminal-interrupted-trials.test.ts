/**
 * The terminal's `Trials` line after Ctrl-C cut a trial off: it counts that trial among those run
 * (it started) and says it was interrupted, as `summary.trials.interrupted` does, so "2/2 run, 1
 * passed" does not read as a trial that ran and failed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { terminalReporter } from '../../src/report/terminal.js';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

describe('the Trials line of an interrupted run', () => {
  it('names the trials the interrupt cut off', async () => {
    let out = '';
    const interrupt = new AbortController();
    const run = await runInProcess({
      files: {
        'a.eval.yaml':
          'suite: s\ntarget: agent\ncases:\n  - { id: quick, input: quick, assert: [{ type: contains, value: done }] }\n  - { id: stuck, input: stuck, assert: [{ type: contains, value: done }] }\n',
      },
      config: {
        concurrency: 1,
        targets: {
          // The second trial is in flight when the interrupt comes, and never answers: the grace ends it.
          agent: (input: string) => (input === 'quick' ? 'done' : new Promise<string>(() => interrupt.abort())),
        },
      },
      interrupt: interrupt.signal,
      reporters: () => [terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false })],
    });
    expect(run.results.summary.trials).toMatchObject({ run: 2, passed: 1, interrupted: 1 });
    expect(stripAnsi(out)).toMatch(/^Trials\s+2\/2 run, 1 passed, 1 interrupted$/m);
  });
});
