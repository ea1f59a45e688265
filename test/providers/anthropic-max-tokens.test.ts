/**
 * The output-token limit a call gets when it sets none: room for thinking on Anthropic models that
 * think by default or always (thinking tokens count against max_tokens), 4,096 on the others, the
 * spec's own limit over both, and none for OpenAI. The judge batch's cost estimate uses the same.
 */
import { describe, expect, it } from 'vitest';
import { maxTokensOf } from '../../src/providers/max-tokens.js';

describe('maxTokensOf', () => {
  it('gives thinking models room, keeps 4,096 elsewhere, and lets the spec decide', () => {
    expect(maxTokensOf({ provider: 'anthropic', model: 'claude-sonnet-5-5' })).toBe(16_000);
    expect(maxTokensOf({ provider: 'anthropic', model: 'claude-opus-5-5' })).toBe(16_000);
    expect(maxTokensOf({ provider: 'anthropic', model: 'claude-haiku-4-5' })).toBe(4096);
    // A model the table does not know, declared to think by default, within its own output limit.
    expect(maxTokensOf({ provider: 'anthropic', model: 'my-claude-proxy', capabilities: { thinking: 'always', maxOutputTokens: 8192 } })).toBe(8192);
    expect(maxTokensOf({ provider: 'anthropic', model: 'claude-sonnet-5-5', maxTokens: 2000 })).toBe(2000);
    expect(maxTokensOf({ provider: 'openai', model: 'gpt-4.1-mini' })).toBeUndefined();
  });
});
