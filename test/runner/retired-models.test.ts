import { describe, expect, it } from 'vitest';
import { retiredModelWarnings } from '../../src/runner/loop/retired-models.js';
import { retirementOf } from '../../src/providers/model-retirement.js';

const ROW = { shutdown: '2026-10-23', source: 'a deprecations page', asOf: '2026-12-01' };
const table = (model: string) => (model === 'openai:old' ? ROW : undefined);

describe('retiredModelWarnings', () => {
  it('one warning per model once its day has come (the day itself included), naming everyone who uses it once', () => {
    const callers = [
      { model: 'openai:old', who: 'target "a"' },
      { model: 'openai:new', who: 'config judge' },
      { model: 'openai:old', who: 'config judge' },
      { model: 'openai:old', who: 'target "a"' },
    ];
    expect(retiredModelWarnings(callers, '2026-10-22', table)).toEqual([]);
    const [warning, ...rest] = retiredModelWarnings(callers, '2026-10-23', table);
    expect(rest).toEqual([]);
    expect(warning).toBe(
      'openai:old shut down on 2026-10-23 (capability table: a deprecations page, read 2026-12-01); used by target "a"; config judge: the run goes on, but its calls may fail (404) if the provider no longer serves it',
    );
  });
});

describe('retirementOf', () => {
  it("reads the provider's own row for the model's own family; not a prefix row's date, nor another server's model of that name", () => {
    expect(retirementOf({ provider: 'openai', model: 'gpt-4.1-nano-2025-04-14' })?.shutdown).toBe('2026-10-23');
    // gpt-5-codex takes the gpt-5 row's rules by prefix, not gpt-5's shutdown.
    expect(retirementOf({ provider: 'openai', model: 'gpt-5' })?.shutdown).toBeDefined();
    expect(retirementOf({ provider: 'openai', model: 'gpt-5-codex' })).toBeUndefined();
    expect(retirementOf({ provider: 'azure', model: 'gpt-4.1-nano' })).toBeUndefined();
    expect(retirementOf({ provider: 'openai', model: 'gpt-6.1-terra' })).toBeUndefined();
  });
});
