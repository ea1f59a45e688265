/**
 * The one merge of a run's settings: a flag beats the config file, which beats the default. The
 * runner, targets and judges only ever see the result.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { resolveConfig } from '../../src/config/load-config.js';
import { reporterSpecs, resolveRunSettings } from '../../src/config/run-settings.js';

const env = { OPENAI_API_KEY: 'sk-test' };
const onDefaults = resolveConfig({}, '/project', null);
const configured = resolveConfig(
  { concurrency: 3, strict: true, earlyStop: false, cache: false, maxCostUsd: 2, trace: 'full', judge: 'openai:gpt-4.1-mini', pricing: { 'openai:m': { input: 1, output: 2 } } },
  '/project',
  'evals.config.ts',
);

describe('resolveRunSettings', () => {
  it('takes the defaults when neither the config nor a flag sets a value', () => {
    const s = resolveRunSettings(onDefaults, {}, env);
    expect(s).toMatchObject({ concurrency: DEFAULTS.concurrency, strict: DEFAULTS.strict, earlyStop: DEFAULTS.earlyStop, dryRun: false, configFile: null, rootDir: '/project', pricing: {} });
    expect(s.judging).toMatchObject({ cache: DEFAULTS.cache, trace: DEFAULTS.trace, cacheMaxEntries: DEFAULTS.cacheMaxEntries, outputDir: '/project/.agent-evals', dryRun: false });
    expect(s.maxCostUsd).toBeUndefined();
    expect(s.bail).toBeUndefined();
    expect(s.judging.override).toBeUndefined();
    expect(s.env).toBe(env);
  });

  it("takes the config's value over the default", () => {
    const s = resolveRunSettings(configured, {}, env);
    expect(s).toMatchObject({ concurrency: 3, strict: true, earlyStop: false, maxCostUsd: 2, budgetField: { file: 'evals.config.ts', field: 'maxCostUsd' }, configFile: 'evals.config.ts' });
    expect(s.judging).toMatchObject({ cache: false, trace: 'full', judge: 'openai:gpt-4.1-mini' });
    expect(s.pricing).toEqual({ 'openai:m': { input: 1, output: 2 } });
  });

  it("takes a flag over the config's value", () => {
    const s = resolveRunSettings(configured, { concurrency: 5, strict: false, maxCost: 0.5, judge: 'anthropic:claude-haiku-4-5', dryRun: true }, env);
    expect(s).toMatchObject({ concurrency: 5, strict: false, maxCostUsd: 0.5, budgetField: { field: '--max-cost' }, dryRun: true });
    expect(s.judging).toMatchObject({ override: 'anthropic:claude-haiku-4-5', judge: 'openai:gpt-4.1-mini', dryRun: true });
  });

  it('lets --no-early-stop and --no-cache only turn a setting off', () => {
    expect(resolveRunSettings(onDefaults, { earlyStop: false, cache: false }, env)).toMatchObject({ earlyStop: false, judging: { cache: false } });
    // commander passes `true` for a `--no-x` flag that was not given: the config still decides.
    expect(resolveRunSettings(configured, { earlyStop: true, cache: true }, env)).toMatchObject({ earlyStop: false, judging: { cache: false } });
  });

  it('takes --judge-batch / --no-judge-batch over judgeBatch in the config, which is off by default', () => {
    const batched = resolveConfig({ judgeBatch: true }, '/project', 'evals.config.ts');
    expect(resolveRunSettings(onDefaults, {}, env).judging.batch).toBe(false);
    expect(resolveRunSettings(onDefaults, { judgeBatch: true }, env).judging.batch).toBe(true);
    expect(resolveRunSettings(batched, {}, env).judging.batch).toBe(true);
    expect(resolveRunSettings(batched, { judgeBatch: false }, env).judging.batch).toBe(false);
  });

  it('makes --bail one failed case and --max-failures n, the latter winning', () => {
    expect(resolveRunSettings(onDefaults, { bail: true }, env).bail).toBe(1);
    expect(resolveRunSettings(onDefaults, { bail: true, maxFailures: 3 }, env).bail).toBe(3);
  });
});

describe('reporterSpecs', () => {
  it('uses --reporter over the config, adds --json, and keeps the terminal unless --silent', () => {
    expect(reporterSpecs(onDefaults, {})).toEqual(['terminal']);
    expect(reporterSpecs({ reporters: ['junit=out.xml'] }, {})).toEqual(['terminal', 'junit=out.xml']);
    expect(reporterSpecs({ reporters: ['junit=out.xml'] }, { reporter: ['github'], json: true })).toEqual(['terminal', 'github', 'json']);
    expect(reporterSpecs(onDefaults, { json: 'r.json', silent: true })).toEqual(['json=r.json']);
  });

  it('adds the github reporter on GitHub Actions when no reporter was chosen, by flag or config', () => {
    const actions = { GITHUB_ACTIONS: 'true' };
    const onActions = resolveConfig({}, '/project', null, actions);
    expect(reporterSpecs(onActions, {})).toEqual(['terminal', 'github']);
    // --json and --silent choose no reporter: a file on top, the terminal off.
    expect(reporterSpecs(onActions, { json: true, silent: true })).toEqual(['github', 'json']);
    expect(reporterSpecs(onActions, { reporter: ['junit'] })).toEqual(['terminal', 'junit']);
    expect(reporterSpecs(resolveConfig({ reporters: ['terminal'] }, '/project', null, actions), {})).toEqual(['terminal']);
    expect(reporterSpecs(resolveConfig({}, '/project', null, { GITHUB_ACTIONS: 'false' }), {})).toEqual(['terminal']);
  });
});

describe('DEFAULTS', () => {
  // Compile-time checks, run by the type-check of the tests in `npm test`.
  it('are typed by the config schema', () => {
    expectTypeOf(DEFAULTS.trace).toEqualTypeOf<'safe' | 'full'>();
    expectTypeOf(DEFAULTS.judgeSeverity).toEqualTypeOf<'soft' | 'gate'>();
    // @ts-expect-error the schema allows only 'safe' | 'full'
    const wrong: typeof DEFAULTS = { ...DEFAULTS, trace: 'verbose' };
    void wrong;
  });
});
