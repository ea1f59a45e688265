/**
 * Where `--estimate` and the CI budget guard price each planned case from: the newest recorded result
 * of the case across the run folders (and results.json, saved baselines), read newest first; a run
 * found in two files counted once; a case none of whose trials ran to its end priced from an older run;
 * a watch re-run's carried cases used only when no other run kept the case.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateHistory } from '../../src/cli/estimate-history.js';
import { caseKey } from '../../src/core/matrix.js';
import type { Results } from '../../src/core/results-schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { HOSTILE_ID, historyCopy, historyRun } from '../support/history-files.js';

afterAll(removeTempDirs);

let base: Results;
beforeAll(async () => {
  base = await historyRun();
});

const KEYS = ['hist/steady', 'hist/flappy', `hist/${HOSTILE_ID}`];
const A = '20261101-000000-aaaaaa';
const B = '20261101-010000-bbbbbb';
const C = '20261101-020000-cccccc';

/** Writes a results document where a run leaves it, last written at `seconds`. */
function write(path: string, doc: Results, seconds: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(doc));
  utimesSync(path, seconds, seconds);
}

/**
 * Run A: the whole suite. Run B (`--filter`): flappy alone. Run C (a watch re-run of steady, whose
 * trials were all interrupted; the others carried), also in results.json.
 */
function outputDir(): string {
  const out = join(tempDir(), '.agent-evals');
  const a = historyCopy(base, 0, 3);
  const b = historyCopy(base, 1, 3);
  b.cases = b.cases.filter((c) => c.id === 'flappy');
  const c = historyCopy(base, 2, 3);
  c.run.watch = { rerun: ['hist/steady'], carried: 2 };
  for (const t of c.cases.find((x) => x.id === 'steady')!.trials) t.interrupted = true;
  write(join(out, 'runs', A, 'results.json'), a, 1_000);
  write(join(out, 'runs', B, 'results.json'), b, 2_000);
  write(join(out, 'runs', C, 'results.json'), c, 3_000);
  write(join(out, 'results.json'), c, 3_000);
  return out;
}

const from = (h: Awaited<ReturnType<typeof estimateHistory>>) => Object.fromEntries((h?.cases ?? []).map((c) => [caseKey(c), c]));

describe('estimateHistory without --from', () => {
  it('takes each case from the newest run that measured it, and names each run it priced from, newest first, once', async () => {
    const out = outputDir();
    const h = await estimateHistory(KEYS, out, join(out, '..'), undefined);
    expect(h!.runs.map((r) => [r.runId, r.cases, r.path])).toEqual([
      ['run-1', 1, join(out, 'runs', B, 'results.json')],
      ['run-0', 2, join(out, 'runs', A, 'results.json')],
    ]);
    expect(h!.runs[0]).toMatchObject({ startedAt: '2026-11-01T01:00:00.000Z', gitSha: '0001abc'.padEnd(40, '0') });
    const cases = from(h);
    expect(Object.keys(cases).sort()).toEqual([...KEYS].sort());
    // Flappy fails on run 1 (the filtered run): its result is run 1's, not run 0's.
    expect(cases['hist/flappy']!.verdict).toBe('failed');
  });

  it("falls back on a watch re-run's carried case when no other run kept the case", async () => {
    const out = outputDir();
    rmSync(join(out, 'runs', A), { recursive: true });
    const h = await estimateHistory(KEYS, out, join(out, '..'), undefined);
    // Steady: only interrupted trials anywhere, so no history; the hostile-id case: carried by run 2.
    expect(Object.keys(from(h)).sort()).toEqual(['hist/flappy', `hist/${HOSTILE_ID}`].sort());
    expect(h!.runs.map((r) => [r.runId, r.cases])).toEqual([
      ['run-2', 1],
      ['run-1', 1],
    ]);
  });

  it('is undefined when no recording holds a planned case', async () => {
    const out = outputDir();
    expect(await estimateHistory(['other/case'], out, join(out, '..'), undefined)).toBeUndefined();
  });
});
