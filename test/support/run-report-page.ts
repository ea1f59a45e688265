/**
 * A run report page of a real judged run, for the run report's browser tests: the judges-cli fixture's
 * `cache/alternating` (judged, passes), `gates/gate-fails` (its `contains` gate fails, so its judge is
 * skipped) and `gates/gate-passes` (gate and judge pass), run twice over one output folder against a
 * fake OpenAI judge, so the second run is judged wholly from the judge cache. The page is that second
 * run's results written as `agent-evals report` writes them.
 */
import { join } from 'node:path';
import type { Comparison, Results } from '../../src/core/results-schema.js';
import { caseKey } from '../../src/core/matrix.js';
import { writeHtmlReport } from '../../src/report/html-page.js';
import { tempDir } from './cli.js';
import { startFakeOpenAI } from './fake-openai.js';
import { explain, runFixtureInProcess, type FixtureRunOptions } from './run-fixture-in-process.js';

/** The cases of the page, in plan order (eval files alphabetically, cases as written). */
export const JUDGED_CASES = ['cache/alternating', 'gates/gate-fails', 'gates/gate-passes'];

export interface JudgedPage {
  path: string;
  /** The second run's results (every judgment from the cache). */
  results: Results;
  /** Judge requests the fake server answered over both runs. */
  judgeRequests: number;
}

/** Writes the results as a page at path, as `agent-evals report` does (each case under its key). */
export async function writePage(path: string, results: Results): Promise<string> {
  const { cases, ...head } = results;
  await writeHtmlReport(
    path,
    head,
    cases.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
  );
  return path;
}

export async function judgedCachedPage(): Promise<JudgedPage> {
  const fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.9, reason: 'says where the order is', evidence: ['shipped'] }, usage: { input: 300, output: 20 } }) });
  try {
    const run: FixtureRunOptions = {
      selection: { filter: JUDGED_CASES },
      env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' },
      judge: 'openai:gpt-4.1-mini',
      outDir: join(tempDir(), 'out'),
    };
    const first = await runFixtureInProcess('judges-cli', run);
    if (first.code !== 1) throw new Error(`first judged run: expected exit 1 (gate-fails fails)\n${explain(first)}`);
    const second = await runFixtureInProcess('judges-cli', run);
    if (second.code !== 1) throw new Error(`second judged run: expected exit 1\n${explain(second)}`);
    const results = second.results();
    return { path: await writePage(join(tempDir(), 'judged.html'), results), results, judgeRequests: fake.count };
  } finally {
    await fake.close();
  }
}

/** One side of a compared case: its verdict, passes of trials run, and mean score. */
type Side = NonNullable<Comparison['cases'][number]['base']>;

/** A comparison in which one case (by key) regressed from base to head, for the reason given; it fails the run. */
export function oneRegression(key: string, base: Side, head: Side, reason: string): Comparison {
  return { baseline: 'base.json', epsilon: 0, maxRegressions: 0, counts: { regressed: 1 }, counted: 1, failed: true, cases: [{ key, kind: 'regressed', base, head, reason }], warnings: [] };
}
