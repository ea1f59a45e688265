/** The results' redteam section from a hand-built results document: per plugin and target, rates with their Wilson interval, errors apart. */
import { describe, expect, it } from 'vitest';
import { RedteamSummarySchema } from '../../src/core/redteam-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { redteamSummary } from '../../src/redteam/index.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { attackResult, resultsOf, trial } from './hand-results.js';

const cost = (calls: number, costUsd: number) => ({ ...emptyUsage(), calls, inputTokens: calls * 100, costUsd });

describe('redteamSummary', () => {
  const results = resultsOf(
    [
      attackResult('support/indirect-injection/system-notice', 'indirect-injection', 'support', [trial(0, 'failed'), trial(1, 'failed'), trial(2, 'passed')]),
      attackResult('support/indirect-injection/stale-data', 'indirect-injection', 'support', [trial(0, 'passed'), trial(1, 'error'), trial(2, 'interrupted')]),
      attackResult('hardened/indirect-injection/system-notice', 'indirect-injection', 'hardened', [trial(0, 'passed'), trial(1, 'passed'), trial(2, 'passed')]),
      attackResult('support/harmful-content/phishing-email', 'harmful-content', 'support', [trial(0, 'passed', 1), trial(1, 'failed', 2)]),
      attackResult('support/direct-injection/ignore-previous', 'direct-injection', 'support', [trial(0, 'error')]),
      // Not an attack: no redteam tags.
      { ...attackResult('other/case', 'x', 'y', [trial(0, 'failed')]), tags: [] },
    ],
    { target: cost(12, 0.5), judge: cost(3, 0.01), user: cost(2, 0.02) },
  );
  const summary = redteamSummary(results, { source: 'attacker', attacker: 'openai:gpt-4.1-mini', attackerUsage: cost(7, 0.1) });

  it('is a valid redteam section, plugins in registry order, one row per plugin and target', () => {
    expect(RedteamSummarySchema.parse(summary)).toEqual(summary);
    expect(summary.plugins.map((p) => `${p.plugin}@${p.target}`)).toEqual(['direct-injection@support', 'indirect-injection@support', 'indirect-injection@hardened', 'harmful-content@support']);
  });

  it('counts trials that ran as attempts and failed ones as successes; errored and interrupted trials are errors, not attempts', () => {
    const row = summary.plugins.find((p) => p.plugin === 'indirect-injection' && p.target === 'support')!;
    expect(row).toMatchObject({ attempts: 4, successes: 2, errors: 2, rate: 0.5, decidedBy: 'detector', judgeCalls: 0, succeeded: ['redteam/support/indirect-injection/system-notice'] });
    expect(row.interval).toEqual(wilsonInterval(2, 4));
    expect(row.owasp).toContain('LLM01:2025 Prompt Injection');
    expect(row.agentic.length).toBeGreaterThan(0);
  });

  it('the hardened target: 0 successes over the same attempts, with the interval', () => {
    const row = summary.plugins.find((p) => p.target === 'hardened')!;
    expect(row).toMatchObject({ attempts: 3, successes: 0, rate: 0, succeeded: [] });
    expect(row.interval!.low).toBe(0);
    expect(row.interval!.high).toBeCloseTo(0.5615, 3);
  });

  it('a judged plugin counts its judge calls; a plugin with nothing run has no rate or interval', () => {
    expect(summary.plugins.find((p) => p.plugin === 'harmful-content')).toMatchObject({ decidedBy: 'judge', judgeCalls: 3, attempts: 2, successes: 1 });
    const none = summary.plugins.find((p) => p.plugin === 'direct-injection')!;
    expect(none).toMatchObject({ attempts: 0, errors: 1 });
    expect(none.rate).toBeUndefined();
    expect(none.interval).toBeUndefined();
  });

  it('usage per side: the attacker is its writing plus the simulated users; target and judge as the run spent', () => {
    expect(summary.source).toBe('attacker');
    expect(summary.attacker).toBe('openai:gpt-4.1-mini');
    expect(summary.usage.attacker).toMatchObject({ calls: 9, costUsd: expect.closeTo(0.12, 10) });
    expect(summary.usage.target).toMatchObject({ calls: 12, costUsd: 0.5 });
    expect(summary.usage.judge).toMatchObject({ calls: 3, costUsd: 0.01 });
  });
});
