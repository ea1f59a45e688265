/** The trace policy's edge: what every reporter receives of tool data under `safe` and `full`. */
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/core/digest.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { CaseResult, TrialResult } from '../../src/core/results-schema.js';
import type { CaseView, Reporter } from '../../src/report/reporter.js';
import { underTracePolicy } from '../../src/runner/loop/trace-policy-reporter.js';
import { caseResult } from '../support/case-result.js';

const ARGS = { orderId: 'ORD-SECRETLESS-7731' };
const RESULT = { status: 'SHIPPED-VIA-KESTREL-4410' };
const ERROR = 'WAREHOUSE-FAULT-5521: stock service down';

function trial(): TrialResult {
  const usage = { target: emptyUsage(), judge: emptyUsage() };
  return {
    index: 0,
    verdict: 'passed',
    score: 1,
    durationMs: 5,
    reply: 'Your order ships Tuesday.',
    usage,
    assertions: [],
    trace: {
      model: 'openai:gpt-5.5',
      steps: [
        { text: 'Looking it up.', toolCalls: [{ name: 'lookup_order', args: ARGS, result: RESULT, isError: false, durationMs: 3 }] },
        { toolCalls: [{ name: 'stock', args: ARGS, result: ERROR, isError: true }] },
      ],
    },
    turns: [{ input: 'Where is my order?', reply: 'Ships Tuesday.', toolCalls: [{ name: 'lookup_order', args: ARGS, result: RESULT }], usage: emptyUsage(), durationMs: 5 }],
  };
}

const view = { index: 0, key: 's/c', suite: 's', id: 'c', file: 'e.yaml', line: 1, tags: [], targetName: 't', repeat: 1 } satisfies CaseView;

function recorder(): Reporter & { cases: CaseResult[]; trials: TrialResult[] } {
  const cases: CaseResult[] = [];
  const trials: TrialResult[] = [];
  return { name: 'rec', cases, trials, onTrialEnd: (_c, t) => void trials.push(t), onCaseEnd: (r) => void cases.push(r), written: () => ['x'] };
}

describe('underTracePolicy', () => {
  it('safe: tool arguments, results and error text reach reporters only as digests; the agent text stays', async () => {
    const rec = recorder();
    const [edge] = underTracePolicy([rec], 'safe');
    const t = trial();
    edge!.onTrialEnd!(view, t);
    await edge!.onCaseEnd!(caseResult({ trials: [t] }), view);
    const [seen] = rec.cases[0]!.trials;
    expect(JSON.stringify(rec.cases)).not.toMatch(/ORD-SECRETLESS|KESTREL|WAREHOUSE-FAULT/);
    expect(JSON.stringify(rec.trials)).not.toMatch(/ORD-SECRETLESS|KESTREL|WAREHOUSE-FAULT/);
    const [first, second] = seen!.trace.steps!;
    expect(first!.toolCalls![0]).toEqual({ name: 'lookup_order', args: digest(ARGS), result: digest(RESULT), isError: false, durationMs: 3 });
    expect(second!.toolCalls![0]).toEqual({ name: 'stock', args: digest(ARGS), result: digest(ERROR), isError: true });
    expect(seen!.turns![0]!.toolCalls[0]).toEqual({ name: 'lookup_order', args: digest(ARGS), result: digest(RESULT) });
    expect(first!.text).toBe('Looking it up.');
    expect(seen!.reply).toBe('Your order ships Tuesday.');
    expect(seen!.turns![0]!.reply).toBe('Ships Tuesday.');
    expect(seen!.trace.model).toBe('openai:gpt-5.5');
    // The pipeline's own object is left raw: gates and judges ran on it, a raw reporter may still read it.
    expect(t.trace.steps![0]!.toolCalls![0]!.args).toEqual(ARGS);
    expect(edge!.name).toBe('rec');
    expect(edge!.written!()).toEqual(['x']);
  });

  it('safe: one case is digested once for every reporter it reaches', async () => {
    const a = recorder();
    const b = recorder();
    const edges = underTracePolicy([a, b], 'safe');
    const result = caseResult({ trials: [trial()] });
    for (const e of edges) await e.onCaseEnd!(result, view);
    expect(a.cases[0]).toBe(b.cases[0]);
    expect(a.cases[0]).not.toBe(result);
  });

  it('safe: a trial and a case with no tool call have nothing to digest and are passed on uncopied', async () => {
    const rec = recorder();
    const [edge] = underTracePolicy([rec], 'safe');
    const { turns: _turns, ...plain } = trial();
    const quiet: TrialResult = { ...plain, trace: { model: 'openai:gpt-5.5', steps: [{ text: 'No tool needed.' }] } };
    const result = caseResult({ trials: [quiet] });
    edge!.onTrialEnd!(view, quiet);
    await edge!.onCaseEnd!(result, view);
    expect(rec.trials[0]).toBe(quiet);
    expect(rec.cases[0]).toBe(result);
    // One trial with tool data among them: the case is digested.
    const mixed = caseResult({ trials: [quiet, trial()] });
    await edge!.onCaseEnd!(mixed, view);
    expect(rec.cases[1]!.trials[0]).toBe(quiet);
    expect(JSON.stringify(rec.cases[1])).not.toContain(ARGS.orderId);
  });

  it('full: reporters are given as they are, tool data raw', async () => {
    const rec = recorder();
    const edges = underTracePolicy([rec], 'full');
    expect(edges[0]).toBe(rec);
  });
});
