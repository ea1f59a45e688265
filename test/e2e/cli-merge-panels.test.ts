/**
 * `agent-evals merge` of a sharded run judged by a panel of three fake judges: the merged results'
 * `summary.panels` is Fleiss' κ over every part's judged assertions (not any part's own κ), and merge
 * prints it. The CLI's `main` runs in-process (dist/: `npm run build` first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';

afterAll(() => removeTempDirs());

const IDS = ['one', 'two', 'three', 'four'];
const member = (scores: number[]) => scores.map((s, i) => `- case: panel/${IDS[i]}\n  score: ${s}\n`).join('');

const CONFIG = `export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  targets: { fixed: () => 'Your order shipped on Monday.' },
  judges: { a: { provider: 'fake', fixtures: 'a.yaml' }, b: { provider: 'fake', fixtures: 'b.yaml' }, c: { provider: 'fake', fixtures: 'c.yaml' } },
  judge: { panel: ['a', 'b', 'c'] },
};
`;

describe('merge over a run judged by a panel', () => {
  it("recomputes the panel's κ over the merged cases and prints it", async () => {
    // Threshold 0.7; items as [members passing, failing]: one [2,1], two [3,0], three [0,3], four [1,2].
    // All four: P̄ = (1/3 + 1 + 1 + 1/3) / 4 = 2/3, p_pass = 1/2, P_e = 1/2, κ = (2/3 − 1/2) / (1/2) = 1/3.
    // No proper subset has κ 1/3 (pairs give −0.2, 1/4, −1/3 or 1; triples 0.55 or 0; one item −1/2 or
    // undefined), so however the plan splits the cases, the merged κ is no part's.
    const cases = IDS.map((id) => `  - id: ${id}\n    input: where?\n    assert:\n      - { type: judge, criteria: says when, threshold: 0.7 }\n`).join('');
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'a.yaml': member([0.9, 0.9, 0.1, 0.1]),
      'b.yaml': member([0.2, 0.9, 0.1, 0.9]),
      'c.yaml': member([0.8, 0.9, 0.1, 0.1]),
      'p.eval.yaml': `suite: panel\ntarget: fixed\ncases:\n${cases}`,
    });
    const read = (name: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    for (const k of [1, 2]) {
      const r = await runCliInProcess(['run', '--silent', '--no-cache', '--shard', `${k}/2`, '--json', `s${k}.json`], { cwd: dir });
      expect(r.code === 0 || r.code === 1, r.stdout + r.stderr).toBe(true);
    }
    const parts = [read('s1.json'), read('s2.json')];
    for (const p of parts) {
      expect(p.cases.length).toBeGreaterThan(0);
      const own = p.summary.panels?.[0]?.kappa ?? null;
      expect(own === null || Math.abs(own - 1 / 3) > 1e-6, `a part's own κ ${own}`).toBe(true);
    }

    const m = await runCliInProcess(['merge', 's2.json', 's1.json', '-o', 'merged.json'], { cwd: dir });
    expect(m.code, m.stdout + m.stderr).toBe(0);
    const panels = read('merged.json').summary.panels;
    expect(panels).toHaveLength(1);
    expect(panels![0]).toMatchObject({ judges: ['a', 'b', 'c'], items: 4 });
    expect(panels![0]!.kappa).toBeCloseTo(1 / 3, 12);
    expect(m.stdout).toContain("Panel: a, b, c: Fleiss' κ 0.33 over 4 judged assertions");
  }, 60_000);
});
