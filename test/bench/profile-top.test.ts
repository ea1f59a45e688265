/** The bench's profile summary: self time per function and per file from a V8 .cpuprofile. */
import { describe, expect, it } from 'vitest';
import { summarize, topTables, type CpuProfile } from '../../bench/profile-top.mjs';

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

// root → a (file:///repo/dist/x.js:1) → b (same file, line 10); c in node_modules; (idle) and (garbage collector).
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5, 6] },
    { id: 2, callFrame: frame('a', 'file:///repo/dist/x.js', 0), children: [3] },
    { id: 3, callFrame: frame('b', 'file:///repo/dist/x.js', 9) },
    { id: 4, callFrame: frame('c', 'file:///repo/node_modules/openai/client.mjs', 4) },
    { id: 5, callFrame: frame('(idle)', '') },
    { id: 6, callFrame: frame('(garbage collector)', '') },
  ],
  // Each sample is charged the interval that follows it (the next time delta).
  samples: [2, 3, 3, 4, 5, 6, 2],
  timeDeltas: [0, 1000, 2000, 3000, 4000, 50_000, 6000, 0],
};

describe('profile-top', () => {
  it('charges each sample the interval after it, to the function on top of the stack, idle left out', () => {
    const s = summarize([profile], '/repo');
    expect(s.byFunction).toEqual([
      { name: '(garbage collector)', ms: 6 },
      { name: 'b dist/x.js:10', ms: 5 },
      { name: 'c node_modules/openai/client.mjs:5', ms: 4 },
      { name: 'a dist/x.js:1', ms: 1 },
    ]);
    expect(s.byFile).toEqual([
      { name: 'dist/x.js', ms: 6 },
      { name: '(native)', ms: 6 },
      { name: 'node_modules/openai/client.mjs', ms: 4 },
    ]);
    expect(s.totalMs).toBe(16);
  });

  it('sums several profiles (a run whose workers write their own) and prints the top N of each list', () => {
    const s = summarize([profile, profile], '/repo');
    expect(s.totalMs).toBe(32);
    const text = topTables(s, 2);
    expect(text).toContain('| 12 | 37.5% | `(garbage collector)` |');
    expect(text).toContain('| 12 | 37.5% | `dist/x.js` |');
    expect(text).not.toContain('`a dist/x.js:1`');
  });
});
