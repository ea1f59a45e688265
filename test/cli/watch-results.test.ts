/**
 * What `run --watch` hands its file reporters: after a partial re-run, every planned case (the re-run
 * ones new, the others as last written), with the summary and run gates counted over all of them.
 * The terminal reporter sees the run's own cases only.
 */
import { describe, expect, it } from 'vitest';
import { WatchResults } from '../../src/cli/watch-results.js';
import type { CaseResult, Summary, TrialResult } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { runGateFailures } from '../../src/runner/loop/exit-code.js';
import type { CaseView, EndInfo, Reporter } from '../../src/report/reporter.js';
import { SummaryBuilder } from '../../src/runner/loop/summary.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { caseResult } from '../support/case-result.js';
import { makePlannedCase } from '../support/planned-case.js';

const plan = ['a1', 'a2', 'b1'].map((id, index) => makePlannedCase({ id, index }, { suite: 's', file: 'e.yaml', input: 'x' }));

/** Records what a reporter was told. */
function recorder(name: string): Reporter & { cases: Array<[string, number, string]>; ends: EndInfo[]; begun: number[] } {
  const r = { name, cases: [] as Array<[string, number, string]>, ends: [] as EndInfo[], begun: [] as number[] };
  return {
    ...r,
    onBegin: (info) => void r.begun.push(info.cases),
    onCaseEnd: (result: CaseResult, c: CaseView) => void r.cases.push([c.key, c.index, result.verdict]),
    onEnd: (info) => void r.ends.push(info),
    get cases() {
      return r.cases;
    },
    get ends() {
      return r.ends;
    },
    get begun() {
      return r.begun;
    },
  };
}

/** Drives reporters as a run of `ran` (indexed as the watch indexes them) would, with the run's own summary. */
async function run(reporters: Reporter[], ran: PlannedCase[], verdicts: Record<string, CaseResult['verdict']>, gates: { minPassRate?: number }) {
  const results = ran.map((c) => {
    const pass = verdicts[c.id] === 'passed';
    const trial: TrialResult = {
      index: 0,
      verdict: pass ? 'passed' : 'failed',
      score: pass ? 1 : 0,
      durationMs: 1,
      reply: '',
      usage: { target: emptyUsage(), judge: emptyUsage() },
      assertions: [],
      trace: {},
    };
    return caseResult({ suite: c.suite, id: c.id, verdict: verdicts[c.id]!, passed: pass ? 1 : 0, trials: [trial] });
  });
  const builder = new SummaryBuilder();
  for (const r of results) builder.addCase(r);
  const built = builder.result();
  // The run's own summary, as execute-run makes it: its gates over its own cases.
  const summary: Summary = { ...built, failures: runGateFailures(built, gates), warnings: ['w'] };
  for (const r of reporters) await r.onBegin?.({ runId: 'r', startedAt: '', config: null, cases: ran.length, trials: ran.length, concurrency: 1, strict: false });
  for (const [i, c] of ran.entries()) {
    const view: CaseView = { index: i, key: c.key, suite: c.suite, id: c.id, file: c.file, line: c.line, tags: [], targetName: 't', repeat: 1 };
    for (const r of reporters) await r.onCaseEnd?.(results[i]!, view);
  }
  const exitCode = summary.cases.failed > 0 || summary.failures.length > 0 ? 1 : 0;
  for (const r of reporters) await r.onEnd?.({ run: { id: 'r', startedAt: '', durationMs: 1, gitSha: null, argv: [], config: null, interrupted: false }, summary, exitCode });
}

describe('WatchResults', () => {
  it('a partial re-run reaches the file reporters as the whole plan, gates counted over all; the terminal keeps the re-run alone', async () => {
    const kept = new WatchResults();
    const gates = { strict: false, minPassRate: 0.5 };
    const first = recorder('json');
    await run(kept.reporters([first], { all: plan, ran: plan, gates }), plan, { a1: 'passed', a2: 'passed', b1: 'passed' }, gates);
    expect(first.ends[0]!.run.watch).toBeUndefined();

    // b1 alone re-runs and fails: its own pass rate (0) misses the gate; the suite's (2 of 3) does not.
    const json = recorder('json');
    const terminal = recorder('terminal');
    const b1 = [{ ...plan[2]!, index: 0 }];
    await run(kept.reporters([terminal, json], { all: plan, ran: b1, gates }), b1, { b1: 'failed' }, gates);
    expect(json.begun).toEqual([3]);
    expect(json.cases).toEqual([
      ['s/b1', 2, 'failed'],
      ['s/a1', 0, 'passed'],
      ['s/a2', 1, 'passed'],
    ]);
    const end = json.ends[0]!;
    expect(end.run.watch).toEqual({ rerun: ['s/b1'], carried: 2 });
    expect(end.summary.cases).toMatchObject({ total: 3, passed: 2, failed: 1 });
    expect(end.summary.failures).toEqual([]);
    expect(end.summary.warnings).toEqual(['w']);
    expect(end.exitCode).toBe(1);

    expect(terminal.begun).toEqual([1]);
    expect(terminal.cases).toEqual([['s/b1', 0, 'failed']]);
    expect(terminal.ends[0]!.summary.failures).toEqual(['trial pass rate 0.000 is below --min-pass-rate 0.5']);

    // A case no longer planned is dropped; one re-run again replaces its kept result.
    const after = recorder('json');
    const two = [plan[0]!, plan[2]!].map((c, index) => ({ ...c, index }));
    const a1 = [{ ...plan[0]!, index: 0 }];
    await run(kept.reporters([after], { all: two, ran: a1, gates }), a1, { a1: 'failed' }, gates);
    expect(after.cases).toEqual([
      ['s/a1', 0, 'failed'],
      ['s/b1', 1, 'failed'],
    ]);
    expect(after.ends[0]!.summary.cases).toMatchObject({ total: 2, failed: 2 });
    expect(after.ends[0]!.summary.failures).toEqual(['trial pass rate 0.000 is below --min-pass-rate 0.5']);
  });
});
