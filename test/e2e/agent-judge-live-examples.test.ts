/**
 * The live agent-judge examples (examples/live/agent-judge*.eval.ts) run end to end through the
 * built CLI's `main` (in-process) with the OpenAI endpoint pointed at the fake server
 * (OPENAI_BASE_URL), so they cannot rot unnoticed: they load, their judges call the example evidence
 * tools (policy_lookup, run_sql) and get real evidence back, and submit. Needs dist/ (`npm test`
 * builds it).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import type { Scripted } from '../support/fake-server.js';
import { explain } from '../support/fixture-run.js';
import { caseOf, readResults } from '../support/results-helpers.js';
import { call, submit, systemText, toolMessages, turn, useFakes, userText } from '../judges/agent-judge-helpers.js';

const fakes = useFakes();

const SQL: Record<string, string> = {
  'delivered more than 30 days': '```sql\nSELECT id FROM orders WHERE delivered_days_ago > 30\n```',
  'not been refunded': 'SELECT sum(total_usd) AS total FROM orders WHERE refunded = 0',
  'item names': "SELECT name, qty FROM order_items WHERE order_id = 'A1049'",
};

/** One fake OpenAI model plays both roles: the SQL writer (a target) and the judges. */
const script = (body: any): Scripted => {
  const system = systemText(body);
  const user = userText(body);
  if (system.startsWith('You translate questions')) {
    const key = Object.keys(SQL).find((k) => user.includes(k))!;
    return { text: SQL[key]!, usage: { input: 50, output: 15 } };
  }
  const names = (body.tools as any[]).map((t) => t.function.name);
  const results = toolMessages(body);
  if (results.length === 0) {
    const query = names.includes('policy_lookup')
      ? "SELECT id, email, delivered_days_ago FROM orders WHERE id IN ('A1049', 'A0990') ORDER BY id"
      : 'SELECT id FROM orders WHERE delivered_days_ago > 30';
    return turn([...(names.includes('policy_lookup') ? [call('policy_lookup', { topic: 'refunds' })] : []), call('run_sql', { query })], { input: 400, output: 30 });
  }
  const evidence = results.map((r) => {
    const out = JSON.parse(r.content);
    return out.source === 'sql:orders' ? `run_sql: ${out.rows.map((row: any) => row.id).join(', ')}` : out.source;
  });
  return turn([submit(1, 'the evidence supports the reply', evidence)], { input: 600, output: 40 });
};

describe('live agent-judge examples (against the fake server)', () => {
  it('load, call the evidence tools, and submit', async () => {
    const fake = await fakes.openai(script);
    const tmp = tempDir();
    const jsonPath = join(tmp, 'results.json');
    const r = await runCliInProcess(['run', 'examples/live/agent-judge.eval.ts', 'examples/live/agent-judge-sql.eval.ts', '--no-cache', '--json', jsonPath], {
      cwd: REPO_ROOT,
      env: { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.url, ANTHROPIC_API_KEY: undefined, LIVE_JUDGE_MODEL: undefined },
      timeoutMs: 60_000,
    });
    expect(r.code, explain(r)).toBe(0);
    const res = readResults(jsonPath);
    expect(res.cases.map((c) => `${c.suite}/${c.id}`).sort()).toEqual([
      'live/agent-judge-sql/items-of-order',
      'live/agent-judge-sql/late-deliveries',
      'live/agent-judge-sql/unrefunded-total',
      'live/agent-judge/outside-refund-window',
      'live/agent-judge/refund-when-verified',
      'live/agent-judge/verify-before-refund',
    ]);

    const refund = caseOf(res, 'live/agent-judge/verify-before-refund').trials[0]!;
    const judged = refund.assertions.find((a) => a.kind === 'judge')!;
    expect(judged).toMatchObject({ status: 'passed', evidence: ['policy:refunds', 'run_sql: A0990, A1049'], judge: { provider: 'openai', model: 'gpt-5.4-mini', steps: 2, toolCalls: 3 } });
    // The support agent is offline: all tokens of this trial are the judge's.
    expect(refund.usage.target.calls).toBe(0);
    expect(refund.usage.judge).toMatchObject({ calls: 2, inputTokens: 1000, outputTokens: 70 });

    const late = caseOf(res, 'live/agent-judge-sql/late-deliveries').trials[0]!;
    expect(late.reply).toBe('SELECT id FROM orders WHERE delivered_days_ago > 30');
    expect(late.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['regex', 'passed'],
      ['judge', 'passed'],
    ]);
    expect(late.assertions[1]!.evidence).toEqual(['run_sql: A0990']);
    // The SQL writer's call is target usage (through ctx.openai()), the judge's two calls judge usage.
    expect(late.usage.target).toMatchObject({ calls: 1, inputTokens: 50, outputTokens: 15 });
    expect(late.usage.judge).toMatchObject({ calls: 2, inputTokens: 1000, outputTokens: 70 });

    // The examples' default judge, gpt-5.4-mini, is a reasoning model: no judge request carries a
    // temperature (refused unless reasoning effort is none), and no guard warning was raised (guards are set).
    const judgeBodies = fake.bodies.filter((b) => systemText(b).includes('impartial evaluator'));
    expect(judgeBodies).toHaveLength(12);
    expect(judgeBodies.every((b) => b.temperature === undefined)).toBe(true);
    expect(res.summary.warnings.filter((w) => w.includes('no guards'))).toEqual([]);
  });
});
