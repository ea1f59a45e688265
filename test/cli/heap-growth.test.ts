import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapGrowthFlag, HEAP_GROWING_PERCENT } from '../../src/cli/heap-growth.js';

describe('heap growth of the CLI process', () => {
  it('is limited unless the user chose a growth factor through node options', () => {
    expect(heapGrowthFlag([], '')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--max-old-space-size=512'], '--enable-source-maps')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--heap-growing-percent=50'])).toBeUndefined();
    expect(heapGrowthFlag([], '--trace-gc --heap_growing_percent=80')).toBeUndefined();
  });

  it('the launcher still starts the CLI after setting the flag', () => {
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'agent-evals.js');
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
