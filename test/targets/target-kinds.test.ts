import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TARGET_KINDS, TargetConfigSchema, targetKindIndex, type TargetKind } from '../../src/targets/config-schema.js';
import { describeTargetIssue } from '../../src/config/target-issues.js';
import { createTarget } from '../../src/targets/create-target.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { trialInput } from './helpers.js';

const settings = { rootDir: '.', configFile: 'evals.config.ts', env: {}, limiters: new ProviderLimiters() };
/** A target that answers with what built it. */
const stub = (reply: string) => ({ name: reply, run: async () => ({ reply }) });

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

  it('createTarget builds each kind by its own descriptor', async () => {
    const marked: readonly TargetKind[] = TARGET_KINDS.map((k) => ({ ...k, build: async (name: string) => stub(`${k.kind}:${name}`) }));
    const values = [() => 'hi', { command: ['x'] }, { model: 'openai:m' }, { url: 'http://127.0.0.1:1/' }, { function: () => 'hi' }, { mcp: 'x' }];
    const built = await Promise.all(values.map((v, i) => createTarget(`t${i}`, v as never, settings, marked)));
    expect(built.map((t) => t.name)).toEqual(TARGET_KINDS.map((k, i) => `${k.kind}:t${i}`));
  });

  it('a kind the registry gains is built with no other edit; without it the value is no target', async () => {
    const echo: TargetKind = {
      kind: 'echo',
      key: 'echo',
      schema: z.object({ echo: z.string() }).strict(),
      shape: '{ echo: string } (an echo target)',
      label: 'an echo target',
      build: async (name, spec) => stub(`${name} says ${(spec as { echo: string }).echo}`),
    };
    const target = await createTarget('parrot', { echo: 'hello' } as never, settings, [...TARGET_KINDS, echo]);
    expect(await target.run(trialInput('hi'), new AbortController().signal)).toEqual({ reply: 'parrot says hello' });
    await expect(createTarget('parrot', { echo: 'hello' } as never, settings)).rejects.toThrow('target "parrot": this kind of target is not supported yet');
  });
});
