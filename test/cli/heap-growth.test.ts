import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapFlags, HEAP_GROWING_PERCENT, YOUNG_GROWTH_FACTOR } from '../../src/cli/heap-growth.js';

describe('heap growth of the CLI process', () => {
  const growth = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  const young = `--semi-space-growth-factor=${YOUNG_GROWTH_FACTOR}`;

  it('is limited unless the user chose a growth factor through node options', () => {
    expect(heapFlags([], '')).toEqual([growth, young]);
    expect(heapFlags(['--max-old-space-size=512'], '--enable-source-maps')).toEqual([growth, young]);
    expect(heapFlags(['--heap-growing-percent=50'])).toEqual([young]);
    expect(heapFlags([], '--trace-gc --heap_growing_percent=80')).toEqual([young]);
  });

  it('grows the young generation fast unless the user chose its growth through node options', () => {
    expect(heapFlags(['--semi-space-growth-factor=2'])).toEqual([growth]);
    expect(heapFlags([], '--semi_space_growth_factor=4 --heap-growing-percent=30')).toEqual([]);
    // Another young-generation flag is not this one: the growth factor is still set.
    expect(heapFlags(['--max-semi-space-size=32'])).toEqual([growth, young]);
  });

  it('the launcher still starts the CLI after setting the flag', () => {
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'agent-evals.js');
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
