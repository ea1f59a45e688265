/**
 * The history's data: what is kept of a results file (a digest: no trials, replies or assertions), runs
 * ordered by run.startedAt whatever order the files came in, each case lined up over the runs (null
 * where a run did not hold it), and the cases that changed most ranked by verdict flips, then pass-rate range.
 */
import { describe, expect, it } from 'vitest';
import { HistoryResultsSchema, digestResults } from '../../src/cli/history-read.js';
import { buildHistory, change, type CasePoint, type HistoryRun, type RunDigest } from '../../src/report/history-data.js';
import { historyCopy, historyRun } from '../support/history-files.js';

function digest(id: string, startedAt: string, cases: Record<string, CasePoint>): RunDigest {
  const run: HistoryRun = {
    file: `${id}.json`,
    id,
    startedAt,
    gitSha: null,
    label: startedAt,
    kind: null,
    scored: false,
    passRate: 0.5,
    passed: 1,
    trials: 2,
    score: 0.5,
    costUsd: null,
    cases: { total: 0, passed: 0, failed: 0, scored: 0, skipped: 0 },
  };
  return { run, cases: new Map(Object.entries(cases)) };
}

describe('the history data', () => {
  it('keeps of a results file only what the page shows', async () => {
    const results = historyCopy(await historyRun(), 1, 3);
    const parsed = HistoryResultsSchema.parse(JSON.parse(JSON.stringify(results)));
    expect(Object.keys(parsed.cases[0]!).sort()).toEqual(['id', 'notRun', 'passed', 'planned', 'score', 'suite', 'usage', 'verdict']);
    const d = digestResults(parsed, 'r.json');
    expect(d.run).toMatchObject({
      file: 'r.json',
      id: 'run-1',
      startedAt: '2026-11-01T01:00:00.000Z',
      label: '2026-11-01 01:00:00 UTC · 0001abc',
      kind: null,
      passRate: 0.5,
      passed: 1,
      trials: 2,
      costUsd: 0.01,
    });
    // One trial each: no pass rate in the file, so passes over trials that ran.
    expect([...d.cases]).toEqual([
      ['hist/steady', ['passed', 1, 1, 0]],
      ['hist/flappy', ['failed', 0, 1, 0]],
      ['hist/<img src=x onerror=alert(1)>', ['passed', 1, 1, 0]],
    ]);
  });

  it("a watch re-run's document: only its re-run cases are its points, its cost theirs, its kind and label say what it was", async () => {
    const results = historyCopy(await historyRun(), 2, 3);
    results.run.watch = { rerun: ['hist/flappy'], carried: 2 };
    results.run.gitSha = null;
    for (const c of results.cases) c.usage.target.costUsd = c.id === 'flappy' ? 0.004 : 0.5;
    const d = digestResults(HistoryResultsSchema.parse(JSON.parse(JSON.stringify(results))), 'w.json');
    expect([...d.cases.keys()]).toEqual(['hist/flappy']);
    // The carried cases' $1 was spent by the runs that ran them, not by this one.
    expect(d.run.costUsd).toBeCloseTo(0.004, 10);
    expect(d.run).toMatchObject({ label: '2026-11-01 02:00:00 UTC', kind: 'watch: 1 case re-run' });
    // Its pass rate is the whole suite's, as the watch reported it.
    expect(d.run.passRate).toBe(results.summary.passRate!.rate);
    results.run.watch = undefined;
    results.run.lastFailedFrom = '.agent-evals/results.json';
    expect(digestResults(HistoryResultsSchema.parse(JSON.parse(JSON.stringify(results))), 'l.json').run.kind).toBe('last failed');
  });

  it('a scored batch (`agent-evals score`) is marked scored, its kind naming the traces; a run is not', async () => {
    const results = historyCopy(await historyRun(), 1, 3);
    expect(digestResults(HistoryResultsSchema.parse(JSON.parse(JSON.stringify(results))), 'r.json').run).toMatchObject({ scored: false, kind: null });
    results.run.scoredFrom = { files: ['prod.jsonl'], traces: 3, unmatched: 0, scoring: ['evals/s.score.yaml'] };
    expect(digestResults(HistoryResultsSchema.parse(JSON.parse(JSON.stringify(results))), 's.json').run).toMatchObject({ scored: true, kind: 'scored: 3 recorded traces' });
  });

  it('orders runs by startedAt, lines cases up over them, and ranks the most changed first', () => {
    const h = buildHistory([
      digest('c', '2026-11-03T00:00:00Z', { 'a/flip': ['passed', 1, 1, 0], 'a/drift': ['passed', 1, 1, 0] }),
      digest('a', '2026-11-01T00:00:00Z', { 'a/flip': ['passed', 1, 1, 0], 'a/drift': ['passed', 0.6, 0.8, 0.001234567], 'a/same': ['failed', 0, 0, null] }),
      digest('b', '2026-11-02T00:00:00+00:00', { 'a/flip': ['failed', 0, 0, 0], 'a/same': ['failed', 0, 0, null] }),
    ]);
    expect(h.runs.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(h.cases.map((c) => [c.key, c.flips, c.range])).toEqual([
      ['a/flip', 2, 1],
      ['a/drift', 0, 0.4],
      ['a/same', 0, 0],
    ]);
    expect(h.changed).toBe(2);
    expect(h.cases[1]!.points).toEqual([['passed', 0.6, 0.8, 0.001235], null, ['passed', 1, 1, 0]]);
  });

  it('counts a flip between the runs that held the case, passing over those that did not', () => {
    expect(change([['passed', 1, 1, 0], null, ['passed', 1, 1, 0], ['scored', null, 0.5, 0]])).toEqual({ flips: 1, range: 0 });
  });
});
