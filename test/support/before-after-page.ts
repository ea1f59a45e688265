/**
 * A compared run for the HTML report's Before and after section: a baseline run and a head run of the
 * same suite whose target answers differently (one case regressed, one improved, one unchanged), the
 * head run compared with the baseline (as
 * `run --baseline base.json` does) and written by the `html` reporter told the baseline file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRun } from '../../src/core/agent-run.js';
import type { Comparison, Results } from '../../src/core/results-schema.js';
import { htmlReporter } from '../../src/report/html.js';
import { comparableCase } from '../../src/stats/compared-case.js';
import { runInProcess, type InProcessRun } from './run-in-process.js';
import { tempDir } from './cli.js';

/** The replies of case `ba/capital`: two words differ (Paris → Lyon, large → small). */
export const BASE_CAPITAL = 'The capital of France is Paris, a large city on the Seine.';
export const HEAD_CAPITAL = 'The capital of France is Lyon, a small city on the Seine.';
/** The tool calls of case `ba/capital`: search and fetch swap places, verify is new. */
export const BASE_TOOLS = ['search', 'fetch'];
export const HEAD_TOOLS = ['fetch', 'search', 'verify'];
/** Case `ba/evil`, improved: the baseline's reply would run script if the diff put it in as markup. */
export const BASE_EVIL = '<img src=x onerror=alert(1)><script>alert(4)</script> unsafe';
export const HEAD_EVIL = 'A safe answer.';

const EVALS = `suite: ba
target: agent
cases:
  - { id: capital, input: capital, assert: [{ type: contains, value: Paris }] }
  - { id: evil, input: evil, assert: [{ type: contains, value: safe answer }] }
  - { id: steady, input: steady, assert: [{ type: contains, value: ok }] }
`;

function target(capital: string, tools: string[], evil: string) {
  return (input: string): AgentRun | string => {
    if (input === 'capital') return { reply: capital, steps: [{ text: 'looking', toolCalls: tools.map((name) => ({ name, args: { q: input }, result: 'found' })) }] };
    return input === 'evil' ? evil : 'ok';
  };
}

export interface ComparedPage {
  /** The page the html reporter wrote. */
  path: string;
  base: Results;
  head: InProcessRun;
  /** The baseline file the run was compared with. */
  baseFile: string;
}

/** Runs the baseline, then the head run compared with it, the html reporter writing `out/report.html`. */
export async function runComparedPage(): Promise<ComparedPage> {
  const dir = tempDir('agent-evals-before-after-');
  const base = await runInProcess({ dir, files: { 'ba.eval.yaml': EVALS }, config: { targets: { agent: target(BASE_CAPITAL, BASE_TOOLS, BASE_EVIL) } } });
  const baseFile = join(dir, 'base.json');
  writeFileSync(baseFile, JSON.stringify(base.results));
  const path = join(dir, 'out', 'report.html');
  const head = await runInProcess({
    dir,
    config: { targets: { agent: target(HEAD_CAPITAL, HEAD_TOOLS, HEAD_EVIL) } },
    baseline: {
      cases: base.results.cases.map(comparableCase),
      options: { baseline: 'base.json', baseRun: { id: base.results.run.id, gitSha: base.results.run.gitSha, startedAt: base.results.run.startedAt }, epsilon: 0.05, maxRegressions: 0 },
    },
    reporters: () => [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test', baselineFile: baseFile })],
  });
  return { path, base: base.results, head, baseFile };
}

/** The head run's comparison (the test fails first if the run made none). */
export function comparisonOf(run: InProcessRun): Comparison {
  const c = run.results.comparison;
  if (!c) throw new Error('the head run was not compared');
  return c;
}
