/**
 * Matrix variants compare on equal trial counts: early stop decides a case across all its
 * variants. Two identical agents (the same target function under two matrix values) whose calls
 * the test holds and releases, so one variant's verdict is settled while the other's trials are
 * still in flight: both still run the same number of trials, and the table marks no best.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A target that answers wrongly, each call held until the test releases it (or the gate is open). */
function heldTarget() {
  const pending: Array<() => void> = [];
  let open = false;
  let waiter: { n: number; go: () => void } | undefined;
  const wake = () => {
    if (waiter && pending.length >= waiter.n) {
      const { go } = waiter;
      waiter = undefined;
      go();
    }
  };
  return {
    target: (): string | Promise<string> =>
      open
        ? 'No idea.'
        : new Promise<string>((answer) => {
            pending.push(() => answer('No idea.'));
            wake();
          }),
    /** Resolves once `n` calls are held. */
    held: (n: number) =>
      new Promise<void>((go) => {
        waiter = { n, go };
        wake();
      }),
    releaseFirst: () => pending.shift()!(),
    openAll: () => {
      open = true;
      for (const release of pending.splice(0)) release();
    },
  };
}

/** One case over a matrix of two targets; it passes when the reply names the order. */
const SUITE = [
  'suite: support',
  'matrix: { target: [a, b] }',
  'cases:',
  '  - id: refund',
  '    input: Where is the refund for order A1000?',
  '    assert: [{ type: contains, value: A1000 }]',
  '',
].join('\n');

describe('a matrix of two identical agents with early stop', () => {
  it('runs the same number of trials of a case on both variants, and the table marks no best', async () => {
    // Trial durations read the fake clock: both variants take 0 ms, so latency cannot pick a side by noise.
    vi.useFakeTimers({ toFake: ['performance'] });
    const gate = heldTarget();
    const running = runInProcess({
      files: {
        'evals/support.eval.yaml': SUITE,
      },
      config: { targets: { a: gate.target, b: gate.target } },
      flags: { concurrency: 4 },
      selection: { repeat: 6 },
    });
    // Trial 0 and 1 of both variants are held. One call answers: its variant has failed a trial and
    // can no longer reach 6 of 6, so that variant's verdict is settled while the other's is not.
    await gate.held(4);
    gate.releaseFirst();
    // The freed slot starts the next trial (whichever variant's it is); then everything answers.
    await gate.held(4);
    gate.openAll();
    const { results } = await running;

    const counts = results.cases.map((c) => [c.matrix?.target, c.trials.length]);
    expect(counts).toHaveLength(2);
    expect(counts[0]![1]).toBe(counts[1]![1]);
    expect(results.cases.every((c) => c.verdict === 'failed' && c.notRunReason === 'early-stop')).toBe(true);

    const table = results.summary.matrix![0]!;
    expect(table.rows.map((r) => r.passRate.trials)).toEqual([counts[0]![1], counts[0]![1]]);
    expect(table.rows.flatMap((r) => r.best)).toEqual([]);
  });

  it('keeps early stop in a matrix at concurrency 1: both variants stop after the same failed first trial', async () => {
    const { results } = await runInProcess({
      files: {
        'evals/support.eval.yaml': SUITE,
      },
      config: { targets: { a: () => 'No idea.', b: () => 'No idea.' } },
      flags: { concurrency: 1 },
      selection: { repeat: 6 },
    });
    // Were the variants in windows of their own, the first would run all 6 waiting for the second.
    expect(results.cases.map((c) => [c.matrix?.target, c.trials.length, c.notRun])).toEqual([
      ['a', 1, 5],
      ['b', 1, 5],
    ]);
  });
});
