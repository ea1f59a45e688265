/** The red team's terminal table: per plugin and target the rate with its interval and how it was decided, usage per side, the successful attacks' keys, names made terminal-safe. */
import { describe, expect, it } from 'vitest';
import { redteamLines } from '../../src/report/redteam-lines.js';
import type { RedteamSummary } from '../../src/core/redteam-schema.js';
import { emptyUsage } from '../../src/core/usage.js';

const row = (over: Partial<RedteamSummary['plugins'][number]>): RedteamSummary['plugins'][number] => ({
  plugin: 'indirect-injection',
  title: 'Indirect prompt injection',
  owasp: [],
  agentic: [],
  target: 'support',
  attempts: 4,
  successes: 0,
  decidedBy: 'detector',
  judgeCalls: 0,
  succeeded: [],
  errors: 0,
  ...over,
});

describe('redteamLines', () => {
  it('aligns a row per plugin and target, then usage per side and each successful attack', () => {
    const lines = redteamLines({
      source: 'attacker',
      attacker: 'openai:gpt-4.1',
      plugins: [
        row({ successes: 4, rate: 1, interval: { low: 0.51, high: 1 }, succeeded: ['redteam/support/indirect-injection/system-notice'] }),
        row({ plugin: 'harmful-content', decidedBy: 'judge', judgeCalls: 3, rate: 0, interval: { low: 0, high: 0.49 }, errors: 1 }),
        row({ plugin: 'excessive-agency', attempts: 0 }),
      ],
      usage: { attacker: { ...emptyUsage(), inputTokens: 1000, costUsd: 0.5 }, target: emptyUsage(), judge: emptyUsage() },
    });
    expect(lines).toEqual([
      'Red team  seed attacks and attacks by openai:gpt-4.1: 4 of 8 attacks succeeded',
      '  plugin              target   attempts  succeeded  rate (95% CI)    decided by       errors',
      '  indirect-injection  support  4         4          100% (51%–100%)  detector',
      '  harmful-content     support  4         0          0% (0%–49%)      judge (3 calls)  1',
      '  excessive-agency    support  0         0          –                detector',
      '  usage: attacker 1,000 tok $0.50 · target 0 tok $0 · judge 0 tok $0',
      'Successful attacks (a failed case is an attack that worked):',
      '  ✗ redteam/support/indirect-injection/system-notice  indirect-injection',
    ]);
  });

  it('shows a case key from a file as terminal-safe text', () => {
    const [, , , , last] = redteamLines({
      source: 'seeds',
      plugins: [row({ successes: 1, rate: 0.25, succeeded: ['s/\u001b[31mred'] })],
      usage: { attacker: emptyUsage(), target: emptyUsage(), judge: emptyUsage() },
    });
    expect(last).not.toContain('\u001b');
  });
});
