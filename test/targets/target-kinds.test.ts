import { describe, expect, it } from 'vitest';
import { TARGET_KINDS, TargetConfigSchema, targetKindIndex } from '../../src/targets/config-schema.js';
import { describeTargetIssue } from '../../src/config/target-issues.js';

describe('target kind registry', () => {
  it('the config schema union is its kinds, in order', () => {
    expect(TargetConfigSchema.options).toEqual(TARGET_KINDS.map((k) => k.schema));
  });

  it('a config value is read as the kind whose key it has (a bare function as a function target)', () => {
    expect(targetKindIndex(() => 'hi')).toBe(0);
    for (const [i, k] of TARGET_KINDS.entries()) if (k.key !== undefined) expect(targetKindIndex({ [k.key]: 'x' }), k.kind).toBe(i);
    expect(targetKindIndex({ nothing: 1 })).toBeUndefined();
    expect(targetKindIndex([])).toBeUndefined();
  });

  it('the malformed-target message offers every kind by its registry shape', () => {
    const value = { nothing: 1 };
    const parsed = TargetConfigSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    const described = describeTargetIssue({ ...issue, path: ['targets', 'bot', ...issue.path] }, value);
    for (const k of TARGET_KINDS) expect(described?.message).toContain(k.shape);
  });
});
