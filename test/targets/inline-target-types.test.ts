/**
 * An inline function target in defineConfig({ targets }) is typed: its `input` is a string and
 * its `ctx` a TargetContext. This file is type-checked by `tsc -p tsconfig.test.json` (part of
 * `npm test`): with the old typing (`never`) the calls below do not compile, and the
 * @ts-expect-error lines fail if the parameters were `any`.
 */
import { describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/index.js';
import { functionTarget, type TargetFunction } from '../../src/targets/function-target.js';
import { never, trialInput } from './helpers.js';

const config = defineConfig({
  targets: {
    inline: async (input, ctx) => {
      const upper: string = input.toUpperCase();
      ctx.usage({ inputTokens: 3, outputTokens: 1, model: 'openai:gpt-4.1-mini' });
      await ctx.tool('lookup', { id: 1 }, (args) => args.id + 1);
      // @ts-expect-error: usage needs token counts
      ctx.usage({ model: 'openai:gpt-4.1-mini' });
      // @ts-expect-error: the input is a string
      input satisfies number;
      return `${upper} (turn ${ctx.turn})`;
    },
    cli: { command: ['node', 'agent.js'] },
  },
});

describe('an inline function target in defineConfig', () => {
  it('is the function itself, and runs as a target', async () => {
    const fn = config.targets!.inline as TargetFunction;
    const run = await functionTarget('inline', fn).run(trialInput('hi'), never);
    expect(run.reply).toBe('HI (turn 1)');
    expect(run.steps?.[0]).toEqual({ usage: { inputTokens: 3, outputTokens: 1 }, model: 'openai:gpt-4.1-mini' });
  });
});
