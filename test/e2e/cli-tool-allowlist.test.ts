/**
 * Tool allowlists through the built CLI (its `main` in-process): a suite's `onlyTools` and a case's
 * own list replacing it. A call outside the list fails the trial like a failed gate, naming the tool
 * and the list; the results summary and the terminal's closing block list every tool called outside
 * its allowlist with the cases that called it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

afterAll(removeTempDirs);

/** The agent searches, and on a refund question also issues the refund. */
const CONFIG = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: {
    async support(input, ctx) {
      await ctx.tool('search_docs', { q: input }, async () => 'Refunds take 5 days.');
      if (input.includes('refund')) await ctx.tool('issue_refund', { order: 'A1' }, async () => 'refunded');
      return { reply: 'Refunds take 5 days.' };
    },
  },
};
`;

const EVAL = `suite: support
target: support
onlyTools: [search_docs]
cases:
  - id: question
    input: How long does shipping take?
    assert: [{ type: contains, value: days }]
  - id: refund
    input: I want a refund
    assert: [{ type: contains, value: days }]
  - id: refund-allowed
    input: I want a refund
    onlyTools: [search_docs, issue_refund]
    assert: [{ type: contains, value: days }]
`;

describe('onlyTools', () => {
  it('a call outside the allowlist fails the trial, names the tool and the list, and is listed in the results summary and the terminal', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
    const r = await runCliInProcess(['run', '--json', 'results.json', '--reporter', 'terminal', '--reporter', 'github=summary.md'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    const verdicts = Object.fromEntries(results.cases.map((c) => [c.id, c.verdict]));
    // The case's own list replaces the suite's: the same calls pass there.
    expect(verdicts).toEqual({ question: 'passed', refund: 'failed', 'refund-allowed': 'passed' });

    const refund = results.cases.find((c) => c.id === 'refund')!;
    const gate = refund.trials[0]!.assertions.find((a) => a.kind === 'onlyTools')!;
    expect(gate).toMatchObject({ severity: 'gate', status: 'failed', evidence: ['issue_refund'] });
    expect(gate.message).toContain('[issue_refund] outside the allowlist');
    expect(gate.message).toContain('onlyTools [search_docs]');
    const allowed = results.cases.find((c) => c.id === 'refund-allowed')!.trials[0]!.assertions[0]!;
    expect(allowed).toMatchObject({ kind: 'onlyTools', status: 'passed' });
    expect(allowed.message).toContain('onlyTools [search_docs, issue_refund]');

    expect(results.summary.toolsOutsideAllowlist).toEqual([{ tool: 'issue_refund', cases: ['support/refund'] }]);
    expect(stripAnsi(r.stdout)).toContain('Outside allowlist: issue_refund (support/refund)');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('Outside allowlist: issue\\_refund \\(support/refund\\)');
  });

  it('no summary entry and no terminal line when every call is allowed', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL.replace('onlyTools: [search_docs]\n', 'onlyTools: [search_docs, issue_refund]\n') });
    const r = await runCliInProcess(['run', '--json', 'results.json', '--reporter', 'terminal'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.summary.toolsOutsideAllowlist).toBeUndefined();
    expect(r.stdout).not.toContain('Outside allowlist');
  });
});
