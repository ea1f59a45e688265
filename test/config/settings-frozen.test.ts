/**
 * Settings are resolved once and never changed after: the resolved config and the run's settings
 * are read-only in their types (an assignment fails the type-check of the tests) and frozen at run
 * time (an assignment that got past the types throws).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, type ResolvedConfig } from '../../src/config/load-config.js';
import { resolveRunSettings, type RunFlags } from '../../src/config/run-settings.js';
import type { RunSettings } from '../../src/runner/loop/settings.js';

const config = resolveConfig(
  { concurrency: 3, judge: 'openai:gpt-4.1-mini', judges: { strict: 'anthropic:claude-haiku-4-5' }, pricing: { 'openai:m': { input: 1, output: 2 } } },
  '/project',
  'evals.config.ts',
);
const settings = resolveRunSettings(config, { maxCost: 1 }, {});

/** Assignments the type-check refuses; never called (each would throw on the frozen value). */
export function mutations(s: RunSettings, c: ResolvedConfig, f: RunFlags): void {
  // @ts-expect-error a run's settings are read-only once resolved
  s.earlyStop = false;
  // @ts-expect-error the judges' share too
  s.judging.judge = 'fake';
  // @ts-expect-error and the budget's source
  s.budgetField.field = '--max-cost';
  // @ts-expect-error the resolved config is read-only: an override goes into the one resolution
  c.loadTimeoutMs = 1;
  // @ts-expect-error its lists too
  c.reporters.push('json');
  // @ts-expect-error flags are read, not rewritten (a compared run passes `{ ...flags, earlyStop: false }`)
  f.earlyStop = false;
}

describe('resolved settings are immutable', () => {
  it('the run settings are frozen, with their nested records', () => {
    expect(Object.isFrozen(settings)).toBe(true);
    for (const part of [settings.judging, settings.judging.judges, settings.targets, settings.pricing, settings.budgetField]) expect(Object.isFrozen(part)).toBe(true);
    expect(() => mutations(settings, config, {})).toThrow(TypeError);
    expect(settings.earlyStop).toBe(true);
  });

  it('the resolved config is frozen', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { loadTimeoutMs: number }).loadTimeoutMs = 1;
    }).toThrow(TypeError);
  });

  it('an override is given before the resolution: the result differs, the config it came from does not', () => {
    const compared = resolveRunSettings(config, { earlyStop: false }, {});
    expect(compared.earlyStop).toBe(false);
    expect(resolveRunSettings(config, {}, {}).earlyStop).toBe(true);
    // Each resolution is its own value: nothing of one run's settings is another's.
    expect(compared.judging).not.toBe(settings.judging);
    expect(compared.targets).not.toBe(config.targets);
  });
});
