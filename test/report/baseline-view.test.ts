/**
 * The baseline's side of the report's Before and after (src/report/baseline-view.ts): read from the
 * baseline file at page time, bounded (moved cases only, BASELINE_TRIALS trials each, the trials that
 * show the move first), under the page's trace policy, and a file that is gone, is no results file or
 * now holds another run said in words rather than shown.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison, Results } from '../../src/core/results-schema.js';
import { BASELINE_CASES, BASELINE_TRIALS, readBaselineView } from '../../src/report/baseline-view.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { comparisonOf, runComparedPage } from '../support/before-after-page.js';

afterAll(removeTempDirs);

let dir = '';
let base: Results;
let cmp: Comparison;

/** The baseline file with `change` applied, written afresh; its path. */
function baseFile(change: (doc: Results) => void = () => {}): string {
  const doc = structuredClone(base);
  change(doc);
  const path = join(dir, 'base.json');
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

/** Case `ba/capital` with five trials, failed and passed in turn (raw tool data: `trace: full`). */
function fiveTrials(doc: Results): void {
  doc.run.trace = 'full';
  const c = doc.cases.find((x) => x.id === 'capital')!;
  const one = c.trials[0]!;
  c.trials = [0, 1, 2, 3, 4].map((index) => ({
    ...structuredClone(one),
    index,
    verdict: index % 2 ? 'passed' : 'failed',
    score: index % 2,
    trace: { steps: [{ toolCalls: [{ name: 'search', args: { q: `raw ${index}` }, result: 'found' }] }] },
  }));
}

beforeAll(async () => {
  const run = await runComparedPage();
  base = run.base;
  cmp = comparisonOf(run.head);
  dir = tempDir();
}, 60_000);

describe('readBaselineView', () => {
  it('keeps the moved cases only, each with its first trials that show the move: a regression\u2019s passes first', async () => {
    const view = await readBaselineView(baseFile(fiveTrials), cmp, 'full', dir);
    expect(view?.missing).toBeUndefined();
    expect(view?.run?.id).toBe(base.run.id);
    expect(view?.cases.map((c) => c.key)).toEqual(['ba/capital', 'ba/evil']);
    const capital = view!.cases[0]!;
    expect(capital.trialsRun).toBe(5);
    expect(capital.trials).toHaveLength(BASELINE_TRIALS);
    expect(capital.trials.map((t) => [t.index, t.verdict])).toEqual([
      [1, 'passed'],
      [3, 'passed'],
      [0, 'failed'],
    ]);
    // Both the file and this run under `full`: the tool data stays raw.
    expect(capital.trials[0]!.trace.steps![0]!.toolCalls![0]!.args).toEqual({ q: 'raw 1' });
  });

  it('digests the baseline\u2019s tool data unless both it and this run are `full`', async () => {
    const view = await readBaselineView(baseFile(fiveTrials), cmp, 'safe', dir);
    const call = view!.cases[0]!.trials[0]!.trace.steps![0]!.toolCalls![0]!;
    expect(call.name).toBe('search');
    expect(JSON.stringify(call.args)).not.toContain('raw 1');
  });

  it('shows no more than BASELINE_CASES moved cases and counts the rest', async () => {
    const many: Comparison = { ...cmp, cases: Array.from({ length: BASELINE_CASES + 2 }, (_, i) => ({ ...cmp.cases[0]!, key: i === 0 ? 'ba/capital' : `ba/gone-${i}` })) };
    const view = await readBaselineView(baseFile(), many, undefined, dir);
    expect(view?.omitted).toBe(2);
    expect(view?.cases.map((c) => c.key)).toEqual(['ba/capital']);
  });

  it('is nothing when no case moved', async () => {
    await expect(readBaselineView(baseFile(), { ...cmp, cases: [{ ...cmp.cases[0]!, kind: 'unchanged' }] }, undefined, dir)).resolves.toBeUndefined();
  });

  it('says why the baseline\u2019s side is missing: no file, not a results file, another run in its place, not told', async () => {
    const missing = async (path: string | undefined) => (await readBaselineView(path, cmp, undefined, dir))?.missing;
    await expect(missing(join(dir, 'nowhere.json'))).resolves.toBe('no file at nowhere.json');
    writeFileSync(join(dir, 'text.json'), 'not json');
    await expect(missing(join(dir, 'text.json'))).resolves.toBe('text.json is not JSON');
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ schemaVersion: 0, cases: [] }));
    await expect(missing(join(dir, 'other.json'))).resolves.toMatch(/^other\.json is not a results file of schema version \d+$/);
    // A saved baseline replaced since the comparison (a later --save-baseline): not shown as the one compared.
    await expect(missing(baseFile((d) => (d.run.id = 'later-run')))).resolves.toBe(`base.json now holds another run (later-run), not the one compared (${base.run.id})`);
    await expect(missing(undefined)).resolves.toBe('the report was not told where the baseline file is');
  });
});
