/**
 * Which shard a case lands in depends on its key and the trial counts only: renaming or reordering
 * another file moves no case, through the CLI's own planning (`prepareCases`, as `list` and `run` call it).
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCases } from '../../src/cli/prepare.js';
import { shardOf } from '../../src/suite/shard.js';
import { removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

const suite = (name: string, repeats: number[]) =>
  `suite: ${name}\ntarget: echo\ncases:\n${repeats.map((r, i) => `  - id: c${i}\n    repeat: ${r}\n    input: hi\n    assert: [{ type: contains, value: hi }]`).join('\n')}\n`;
const CONFIG = `export default { evals: ['**/*.eval.yaml'], targets: { echo: (input) => input } };\n`;

/** case key → its shard, over all three shards. */
async function placement(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const k of [1, 2, 3]) {
    const { cases, shard } = await prepareCases([], { shard: `${k}/3` }, dir);
    expect(shard?.plan.cases).toBe(13);
    for (const c of cases) {
      expect(out.has(c.key), `${c.key} in two shards`).toBe(false);
      out.set(c.key, k);
    }
  }
  return out;
}

describe('shard placement', () => {
  it('renaming and moving another file (so files load in another order) moves no case', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'a.eval.yaml': suite('alpha', [1, 4, 2, 2]),
      'b.eval.yaml': suite('beta', [3, 1, 1, 5, 1]),
      'c.eval.yaml': suite('gamma', [2, 2, 1, 1]),
    });
    const before = await placement(dir);
    expect(before.size).toBe(13);
    expect(new Set(before.values()).size).toBe(3);
    renameSync(join(dir, 'a.eval.yaml'), join(dir, 'z-last.eval.yaml'));
    const firstKeys = (await prepareCases([], {}, dir)).cases.map((c) => c.key);
    expect(firstKeys[0], 'the rename should change the load order').toBe('beta/c0');
    expect(await placement(dir)).toEqual(before);
  });

  it('the split reads keys and trial counts, not the order cases come in', () => {
    const cases = Array.from({ length: 40 }, (_, i) => ({ key: `s/case-${i}`, repeat: (i % 7) + 1 }));
    const parts = shardOf(cases, 4);
    const reversed = shardOf([...cases].reverse(), 4).reverse();
    expect(reversed).toEqual(parts);
    const trials = [1, 2, 3, 4].map((k) => cases.filter((_, i) => parts[i] === k).reduce((s, c) => s + c.repeat, 0));
    // Greedy placement: no shard ends more than the largest case (7 trials) above another.
    expect(Math.max(...trials) - Math.min(...trials)).toBeLessThanOrEqual(7);
    expect(shardOf(cases, 1).every((k) => k === 1)).toBe(true);
  });
});
