/**
 * The reporter multiplexer: every hook guarded, a failing reporter reported once and then left out,
 * the others reached in order, a rejected promise from a fire-and-forget hook caught too.
 */
import { describe, expect, it } from 'vitest';
import { multiplexReporters, type ReporterFailure } from '../../src/report/multiplexer.js';
import type { CaseView, EndInfo, Reporter } from '../../src/report/reporter.js';
import type { CaseResult } from '../../src/core/results-schema.js';

const END = { run: {}, summary: {}, exitCode: 0 } as unknown as EndInfo;
const CASE = {} as CaseResult;
const VIEW = {} as CaseView;

describe('multiplexReporters', () => {
  it('reports a reporter that throws once, skips it afterwards and still reaches the others', async () => {
    const seen: string[] = [];
    const failures: ReporterFailure[] = [];
    const bad: Reporter = {
      name: 'bad',
      onWarning: (m) => {
        seen.push(`bad ${m}`);
        throw new Error('no');
      },
      onEnd: () => void seen.push('bad end'),
    };
    const good: Reporter = { name: 'good', onWarning: (m) => void seen.push(`good ${m}`), onEnd: () => void seen.push('good end') };
    const mux = multiplexReporters([bad, good], (f) => failures.push(f));
    mux.onWarning('w1');
    mux.onWarning('w2');
    await mux.onEnd(END);
    expect(seen).toEqual(['bad w1', 'good w1', 'good w2', 'good end']);
    expect(failures.map((f) => [f.reporter, f.hook])).toEqual([['bad', 'onWarning']]);
    expect(mux.failures).toHaveLength(1);
  });

  it('catches a failure in onEnd without stopping the reporters after it, and an unnamed one is named by position', async () => {
    const seen: string[] = [];
    const failures: ReporterFailure[] = [];
    const mux = multiplexReporters(
      [
        {
          onEnd: async () => {
            throw new Error('full');
          },
        },
        { onEnd: () => void seen.push('second end') },
      ],
      (f) => failures.push(f),
    );
    await mux.onEnd(END);
    expect(seen).toEqual(['second end']);
    expect(failures.map((f) => [f.reporter, f.hook])).toEqual([['reporter 1', 'onEnd']]);
  });

  it('catches a promise rejected by a fire-and-forget hook', async () => {
    const failures: ReporterFailure[] = [];
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- on purpose: a void hook given an async function, whose rejection the multiplexer must catch
    const mux = multiplexReporters([{ name: 'async', onWarning: async () => Promise.reject(new Error('late')) }], (f) => failures.push(f));
    mux.onWarning('w');
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures.map((f) => [f.reporter, f.hook])).toEqual([['async', 'onWarning']]);
  });

  it('calls reporters that return no promise one after another at once, and waits for one that returns a promise before the next', async () => {
    const seen: string[] = [];
    const sync = (name: string): Reporter => ({ name, onCaseEnd: () => void seen.push(name), onTrialEnd: () => {} });
    let release!: () => void;
    const slow: Reporter = { name: 'slow', onCaseEnd: () => new Promise<void>((resolve) => (release = () => (seen.push('slow'), resolve()))) };
    const all = multiplexReporters([sync('a'), sync('b')], () => {});
    // Nothing to wait for: no promise, and both reached before the call returns.
    expect(all.onCaseEnd(CASE, VIEW)).toBeUndefined();
    expect(seen).toEqual(['a', 'b']);
    seen.length = 0;
    const mixed = multiplexReporters([sync('a'), slow, sync('b')], () => {});
    const done = mixed.onCaseEnd(CASE, VIEW);
    expect(seen).toEqual(['a']);
    release();
    await done;
    expect(seen).toEqual(['a', 'slow', 'b']);
  });

  it('says whether any reporter hears trials end', () => {
    expect(multiplexReporters([{ onCaseEnd: () => {} }], () => {}).hearsTrials).toBe(false);
    expect(multiplexReporters([{ onCaseEnd: () => {} }, { onTrialEnd: () => {} }], () => {}).hearsTrials).toBe(true);
  });
});
