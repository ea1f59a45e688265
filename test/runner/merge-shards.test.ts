/**
 * mergeShards over hand-built shard documents: plan order from `positions`, a shard's budget stop and
 * interruption carried into the merged failures and exit code, and files that do not add up refused.
 */
import { describe, expect, it } from 'vitest';
import { mergeShards, type ShardFile } from '../../src/runner/shards/merge-shards.js';
import { UserError } from '../../src/core/errors.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { AssertionResult, CaseResult, CaseVerdict, Results } from '../../src/core/results-schema.js';

const usage = { target: emptyUsage(), judge: emptyUsage() };

function caseResult(id: string, verdict: CaseVerdict, notRunReason?: 'budget'): CaseResult {
  const ran = verdict === 'skipped' ? 0 : 1;
  return {
    ...{ suite: 's', id, file: 's.eval.yaml', line: 1, tags: [] },
    ...{ verdict, passed: verdict === 'passed' ? 1 : 0, required: 1, planned: 1, notRun: 1 - ran },
    ...(notRunReason ? { notRunReason } : {}),
    ...{ score: { mean: verdict === 'passed' ? 1 : 0, stddev: 0 }, judgeScore: null, usage },
    trials: ran
      ? [
          {
            index: 0,
            verdict: verdict === 'passed' ? 'passed' : 'failed',
            score: verdict === 'passed' ? 1 : 0,
            durationMs: 1,
            reply: '',
            usage,
            assertions: [],
            trace: { steps: 0, toolCalls: [], usage: emptyUsage(), durationMs: 1 } as never,
          },
        ]
      : [],
  };
}

function shard(
  index: number,
  total: number,
  positions: number[],
  cases: CaseResult[],
  extra: { failures?: string[]; interrupted?: boolean; trace?: 'safe' | 'full'; uncollected?: string[] } = {},
): ShardFile {
  const results = {
    schemaVersion: 1,
    tool: { name: 'agent-evals', version: 'test' },
    run: {
      id: `r${index}`,
      startedAt: `2026-01-01T00:00:0${index}.000Z`,
      durationMs: 100 * index,
      gitSha: null,
      argv: [],
      config: null,
      interrupted: extra.interrupted ?? false,
      ...(extra.trace ? { trace: extra.trace } : {}),
      shard: { index, total, config: 'cfg', plan: { cases: 3, trials: 3, hash: 'plan' }, positions, exit: { strict: false, failOnFlaky: false } },
    },
    summary: {
      failures: extra.failures ?? [],
      warnings: [`warned by ${index}`, 'shared'],
      ...(extra.uncollected ? { uncollectedBatches: extra.uncollected.map((id) => ({ id, spec: 'openai:gpt-4.1-mini', reason: 'polls failed' })) } : {}),
    },
    cases,
  } as unknown as Results;
  return { name: `s${index}.json`, results };
}

const meta = { argv: ['merge'], version: 'test' };

describe('mergeShards', () => {
  it('keeps the judge batches every shard left uncollected', () => {
    const { results } = mergeShards(
      [shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')], { uncollected: ['batch_a'] }), shard(2, 2, [1], [caseResult('b', 'passed')], { uncollected: ['batch_b'] })],
      meta,
    );
    expect(results.summary.uncollectedBatches?.map((b) => b.id)).toEqual(['batch_a', 'batch_b']);
  });

  it('puts cases in plan order and recomputes the summary; a clean merge exits 0', () => {
    const { results, exitCode } = mergeShards([shard(2, 2, [1], [caseResult('b', 'passed')]), shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')])], meta);
    expect(results.cases.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(results.summary.cases).toMatchObject({ total: 3, passed: 3 });
    expect(results.summary.trials).toMatchObject({ planned: 3, run: 3, passed: 3 });
    expect(results.summary.warnings).toEqual(['warned by 2', 'shared', 'warned by 1']);
    expect(results.run).toMatchObject({ startedAt: '2026-01-01T00:00:01.000Z', durationMs: 200, interrupted: false });
    expect(exitCode).toBe(0);
  });

  it("keeps a shard's budget stop, named by its shard, and drops its own run gates", () => {
    const stop = 'cost budget of $1 spent ($1.2000): no new trials were started';
    const { results, exitCode } = mergeShards(
      [
        shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')], { failures: ['mean score 0.500 is below --min-score 0.9'] }),
        shard(2, 2, [1], [caseResult('b', 'skipped', 'budget')], { failures: [stop] }),
      ],
      meta,
    );
    expect(results.summary.failures).toEqual([`shard 2/2: ${stop}`]);
    expect(exitCode).toBe(1);
  });

  it('an interrupted shard makes the merge interrupted (130)', () => {
    const { results, exitCode } = mergeShards(
      [shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')]), shard(2, 2, [1], [caseResult('b', 'passed')], { interrupted: true })],
      meta,
    );
    expect(results.run.interrupted).toBe(true);
    expect(exitCode).toBe(130);
  });

  it("keeps the shards' trace policy: their files are already under it (one run's shards share its settings)", () => {
    const cases = (trace: 'safe' | 'full') => [shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')], { trace }), shard(2, 2, [1], [caseResult('b', 'passed')], { trace })];
    expect(mergeShards(cases('safe'), meta).results.run.trace).toBe('safe');
    expect(mergeShards(cases('full'), meta).results.run.trace).toBe('full');
    expect(mergeShards([shard(1, 2, [0, 2], [caseResult('a', 'passed'), caseResult('c', 'passed')]), shard(2, 2, [1], [caseResult('b', 'passed')])], meta).results.run.trace).toBeUndefined();
  });

  it('refuses positions that do not cover the plan', () => {
    const merge = () => mergeShards([shard(1, 2, [0, 0], [caseResult('a', 'passed'), caseResult('c', 'passed')]), shard(2, 2, [1], [caseResult('b', 'passed')])], meta);
    expect(merge).toThrow(UserError);
    expect(merge).toThrow('s1.json: run.shard.positions names position 0 twice');
  });

  it("recomputes each panel's agreement and the tools outside allowlists over the merged cases, not the shards' own", () => {
    // Panel a, b, c; each item is a judged assertion as [members passing, failing] (n = 3 raters).
    // Shard 1 holds [3,0] and [2,1]: P_i = 1 and 2/6, P̄ = 2/3; p_pass = 5/6, P_e = 25/36 + 1/36 = 13/18;
    //   κ = (2/3 − 13/18) / (1 − 13/18) = (−1/18) / (5/18) = −0.2.
    // Shard 2 holds [0,3] and [1,2]: the mirror image, κ = −0.2 too.
    // Merged: [3,0] [2,1] [0,3] [1,2]: P̄ = (1 + 1/3 + 1 + 1/3) / 4 = 2/3; p_pass = 6/12, P_e = 1/2;
    //   κ = (2/3 − 1/2) / (1/2) = 1/3.
    const judged = (passing: number): AssertionResult => ({
      ...{ name: 'judge', kind: 'judge', severity: 'gate', status: passing >= 2 ? 'passed' : 'failed', score: 0.5, threshold: 0.7, weight: 1, message: 'judge' },
      panel: { aggregate: 'majority', members: ['a', 'b', 'c'].map((judge, i) => ({ judge, status: i < passing ? 'passed' : 'failed', score: i < passing ? 0.9 : 0.1, usage: emptyUsage() })) },
    });
    const outside = (...tools: string[]): AssertionResult => ({
      ...{ name: 'onlyTools', kind: 'onlyTools', severity: 'gate', status: 'failed', score: 0, threshold: 1, weight: 1 },
      ...{ message: `onlyTools: called [${tools.join(', ')}] outside the allowlist`, evidence: tools },
    });
    const withAssertions = (c: CaseResult, assertions: AssertionResult[]): CaseResult => ({ ...c, trials: c.trials.map((t) => ({ ...t, assertions })) });
    const a = withAssertions(caseResult('a', 'failed'), [judged(3), outside('delete_file')]);
    const b = withAssertions(caseResult('b', 'failed'), [judged(0), judged(1), outside('delete_file', 'rm')]);
    const c = withAssertions(caseResult('c', 'passed'), [judged(2)]);
    const one = shard(1, 2, [0, 2], [a, c]);
    const two = shard(2, 2, [1], [b]);
    // What each shard's own run wrote, which the merge must not keep.
    one.results.summary.panels = [{ judges: ['a', 'b', 'c'], items: 2, kappa: -0.2 }];
    two.results.summary.panels = [{ judges: ['a', 'b', 'c'], items: 2, kappa: -0.2 }];
    one.results.summary.toolsOutsideAllowlist = [{ tool: 'delete_file', cases: ['s/a'] }];
    two.results.summary.toolsOutsideAllowlist = [
      { tool: 'delete_file', cases: ['s/b'] },
      { tool: 'rm', cases: ['s/b'] },
    ];

    const { summary } = mergeShards([one, two], meta).results;
    expect(summary.panels).toHaveLength(1);
    expect(summary.panels![0]).toMatchObject({ judges: ['a', 'b', 'c'], items: 4 });
    expect(summary.panels![0]!.kappa).toBeCloseTo(1 / 3, 12);
    // In plan order (a, b, c), each tool once with every case that called it.
    expect(summary.toolsOutsideAllowlist).toEqual([
      { tool: 'delete_file', cases: ['s/a', 's/b'] },
      { tool: 'rm', cases: ['s/b'] },
    ]);
  });
});
