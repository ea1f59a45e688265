/**
 * stdout off a TTY: the terminal's (and github's) text gathered and written in fewer writes, the
 * same text in the same order, and nothing lost when the process exits before the run's end
 * (the terminal's coalesced text against its line-by-line text: test/report/reporters.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { coalescedOutput } from '../../src/report/coalesced-output.js';

afterEach(() => void vi.useRealTimers());

function sink() {
  const writes: string[] = [];
  return { writes, out: { write: (t: string) => void writes.push(t) } };
}

describe('coalescedOutput', () => {
  it('writes what gathered in one piece after 100 ms or on flush, in order, and one per stream', () => {
    vi.useFakeTimers();
    const { writes, out } = sink();
    const a = coalescedOutput(out);
    a.write('one\n');
    coalescedOutput(out).write('two\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(writes).toEqual(['one\ntwo\n']);
    a.write('three\n');
    a.flush();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('writes what gathered when the process exits before anyone flushed it', () => {
    const module = pathToFileURL(join(process.cwd(), 'dist/report/coalesced-output.js')).href;
    const script = `import { coalescedOutput } from ${JSON.stringify(module)}; const o = coalescedOutput(process.stdout); o.write('a\\n'); o.write('b\\n'); process.exit(3);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('a\nb\n');
  });
});
