import { relative } from 'node:path';
import { caseKey } from '../core/matrix.js';
import { ResultsSchema, type CaseResult, type Results, type TrialResult } from '../core/results-schema.js';
import { readBaselineView, type BaselineView } from '../report/baseline-view.js';
import { buildHistory } from '../report/history-data.js';
import { readRawTrials, type RawCase } from '../report/raw-trials.js';
import { runFoldersWithResults, type RunFolder } from '../report/run-folders.js';
import type { ViewReport, ViewSource } from '../report/view-server.js';
import { compareRuns } from '../stats/compare-runs.js';
import { compareOptions } from './compare-options.js';
import { readHistory } from './history-read.js';
import { reportBaseline } from './report-baseline.js';
import { readResultsFile } from '../suite/results-file.js';
import { viewRuns } from './view-runs.js';

/**
 * A trial with its trace and turns as the run folder's raw trials keep them (tool arguments, results
 * and error text in clear, the run's secrets already redacted), where the results document holds
 * digests (`trace: safe`). A trial the raw file does not hold (a `full` run keeps none) stays as it was.
 */
function withRaw<T extends Pick<TrialResult, 'index' | 'trace' | 'turns'>>(trial: T, raw: RawCase | undefined): T {
  const kept = raw?.trials.find((t) => t.index === trial.index);
  return kept ? { ...trial, trace: kept.trace, ...(kept.turns ? { turns: kept.turns } : {}) } : trial;
}

function rawCase(c: CaseResult, raw: Map<string, RawCase> | undefined): CaseResult {
  const found = raw?.get(caseKey(c));
  return found ? { ...c, trials: c.trials.map((t) => withRaw(t, found)) } : c;
}

/**
 * What `agent-evals view` serves from an output folder: its run folders (`runs/<id>/`), each read
 * anew per page. Only a run folder the listing found is ever read, so an address names no other path.
 */
export function viewSource(outputDir: string, cwd: string): ViewSource {
  const shown = relative(cwd, outputDir) || outputDir;
  const folder = async (id: string): Promise<RunFolder | undefined> => (await runFoldersWithResults(outputDir)).find((f) => f.id === id);
  const read = async (f: RunFolder): Promise<{ results: Results; raw: Map<string, RawCase> | undefined }> => ({
    results: await readResultsFile(f.results, cwd, '', ResultsSchema),
    raw: await readRawTrials(outputDir, f.id),
  });
  const page = ({ results: { cases, ...head }, raw }: { results: Results; raw: Map<string, RawCase> | undefined }, baseline: BaselineView | undefined): ViewReport => ({
    head,
    cases: cases.map((c) => ({ json: JSON.stringify(rawCase(c, raw)), key: caseKey(c) })),
    baseline,
  });

  return {
    async runs() {
      return { dir: shown, ...(await viewRuns(await runFoldersWithResults(outputDir), cwd)) };
    },

    async report(id) {
      const f = await folder(id);
      if (!f) return undefined;
      const run = await read(f);
      // A run compared when it ran: its own baseline's side, as `agent-evals report` finds it.
      return page(run, await reportBaseline(run.results, undefined, cwd));
    },

    async compare(beforeId, afterId) {
      const [b, a] = [await folder(beforeId), await folder(afterId)];
      if (!b || !a) return undefined;
      const [before, after] = [await read(b), await read(a)];
      const label = relative(cwd, b.results) || b.results;
      const comparison = compareRuns(before.results.cases, after.results.cases, compareOptions({}, label, before.results));
      const view = await readBaselineView(b.results, comparison, 'full', cwd);
      const baseline = view && { ...view, cases: view.cases.map((c) => ({ ...c, trials: c.trials.map((t) => withRaw(t, before.raw?.get(c.key))) })) };
      return page({ ...after, results: { ...after.results, comparison } }, baseline);
    },

    async history() {
      const folders = await runFoldersWithResults(outputDir);
      const { digests, skipped } = await readHistory(
        folders.map((f) => ({ path: f.results, named: false })),
        cwd,
        '',
      );
      return buildHistory(digests, skipped);
    },
  };
}
