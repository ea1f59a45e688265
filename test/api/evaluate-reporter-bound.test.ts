/**
 * A reporter given to `evaluate(...).reporter(r)` is user code, bounded as the CLI bounds a reporter
 * module's hooks: a hook that never settles is dropped after `reporterTimeoutMs` (or after the
 * interrupt's grace once the eval's signal aborts), named on stderr, and `run()` still resolves with
 * the eval's result. No judge: the assertions are deterministic.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate } from '../../src/api/evaluate.js';

const never = () => new Promise<void>(() => {});

function stderrLines(): { lines: string[] } {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return { lines };
}

describe('evaluate(): a reporter hook that never settles', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('is dropped after reporterTimeoutMs, naming the reporter; the result is the run without it, marked not passed', async () => {
    const err = stderrLines();
    const heard: string[] = [];
    const result = await evaluate(() => 'Order 42 ships on Monday.')
      .input('Where is order 42?')
      .expect({ type: 'contains', value: 'Monday' })
      .config({ reporterTimeoutMs: 300 })
      .reporter({ name: 'stuck', onCaseEnd: never, onEnd: () => void heard.push('stuck: onEnd') })
      .reporter({ onEnd: () => void heard.push('other: onEnd') })
      .run();
    expect(result.verdict).toBe('passed');
    expect(result.trials).toHaveLength(1);
    // As the CLI's exit 2: a reporter's output is incomplete, so the run is not a green one.
    expect(result.passed).toBe(false);
    expect(err.lines.join('')).toContain('reporter "stuck" failed in onCaseEnd: did not settle within 300 ms (reporterTimeoutMs); it gets no further events');
    expect(heard).toEqual(['other: onEnd']);
  });

  it("once the eval's signal aborts, a pending hook has the interrupt's grace and no more", async () => {
    const err = stderrLines();
    const stop = new AbortController();
    const result = await evaluate(() => 'Order 42 ships on Monday.')
      .input('Where is order 42?')
      .expect({ type: 'contains', value: 'Monday' })
      // Long enough that only the interrupt can end the wait here.
      .config({ reporterTimeoutMs: 2_000_000_000 })
      .reporter({
        onEnd: () => {
          stop.abort();
          return never();
        },
      })
      .signal(stop.signal)
      .run();
    expect(result.verdict).toBe('passed');
    expect(err.lines.join('')).toMatch(/reporter "reporter 1" failed in onEnd: did not settle within the \d+ ms the run gives reporters after an interrupt/);
  });
});
