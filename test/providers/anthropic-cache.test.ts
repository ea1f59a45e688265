/** Where an Anthropic request gets its prompt-cache mark: the stable prefix, when long enough for the model's family. */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { estimateTokensLow, minCacheableTokens } from '../../src/providers/wires/anthropic/anthropic-cache.js';
import { toAnthropicParams } from '../../src/providers/wires/anthropic/anthropic-wire.js';
import { toOpenAIParams } from '../../src/providers/wires/openai/openai-wire.js';
import type { CompletionRequest } from '../../src/providers/types.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';

/** A user text whose first `stable` characters are marked stable, then a short per-request tail. */
function request(stable: number): CompletionRequest {
  const content = `${'s'.repeat(stable)}TAIL`;
  return { system: 'judge', messages: [{ role: 'user', content, stablePrefix: stable }], schema: { name: 'answer', jsonSchema: { type: 'object' } } };
}

const userContent = (model: string, stable: number) => toAnthropicParams(model, request(stable), { maxTokens: 100 }).messages[0]!.content as unknown;

describe('the Anthropic prompt-cache mark', () => {
  it('follows the minimum cacheable length of the model family', () => {
    expect(minCacheableTokens('claude-sonnet-4-5-20250929')).toBe(1024);
    expect(minCacheableTokens('claude-haiku-4-5')).toBe(4096);
    expect(minCacheableTokens('claude-3-5-haiku-latest')).toBe(2048);
    // A family we do not know is held to the largest known minimum.
    expect(minCacheableTokens('claude-future-9')).toBe(4096);
  });

  it('estimates tokens low, 4 characters each, so a marked prefix is long enough', () => {
    expect(estimateTokensLow(4095)).toBe(1023);
    expect(estimateTokensLow(4096)).toBe(1024);
  });

  it('marks a 6,000-character prefix on Sonnet 4.5 (1,024 tokens) but not on Haiku 4.5 (4,096)', () => {
    const sonnet = userContent('claude-sonnet-4-5', 6000) as any[];
    expect(sonnet).toEqual([
      { type: 'text', text: 's'.repeat(6000), cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'TAIL' },
    ]);
    expect(userContent('claude-haiku-4-5', 6000)).toBe(`${'s'.repeat(6000)}TAIL`);
    expect(userContent('claude-haiku-4-5', 17000)).toEqual([expect.objectContaining({ cache_control: { type: 'ephemeral' } }), { type: 'text', text: 'TAIL' }]);
  });

  it('counts the system text and the tools into the prefix; a request without a stable prefix is untouched', () => {
    // 3,900 characters of user text alone are under 1,024 tokens; with a long system text they are over.
    const req = request(3900);
    expect(typeof toAnthropicParams('claude-sonnet-4-5', req, { maxTokens: 100 }).messages[0]!.content).toBe('string');
    const long = { ...req, system: 'x'.repeat(400) };
    expect(Array.isArray(toAnthropicParams('claude-sonnet-4-5', long, { maxTokens: 100 }).messages[0]!.content)).toBe(true);
    const plain: CompletionRequest = { messages: [{ role: 'user', content: 'y'.repeat(20000) }] };
    expect(toAnthropicParams('claude-sonnet-4-5', plain, { maxTokens: 100 }).messages[0]!.content).toBe('y'.repeat(20000));
  });

  it('OpenAI needs no mark (its prefix cache is automatic): the user text goes as it is', () => {
    const params = toOpenAIParams('gpt-4.1-mini', request(6000));
    expect(params.messages[1]).toEqual({ role: 'user', content: `${'s'.repeat(6000)}TAIL` });
  });
});

describe('the fake Anthropic server checks cache marks as the API does', () => {
  it('takes the marked request through the real SDK, and refuses a mark the API would refuse', async () => {
    const fake = await startFakeAnthropic({ script: () => ({ json: { ok: true } }) });
    try {
      const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
      const marked = toAnthropicParams('claude-sonnet-4-5', request(6000), { maxTokens: 100 });
      await expect(client.messages.create(marked)).resolves.toMatchObject({ type: 'message' });

      const withMark = (block: Record<string, unknown>) => ({ ...marked, messages: [{ role: 'user' as const, content: [block as any, { type: 'text' as const, text: 'TAIL' }] }] });
      await expect(client.messages.create(withMark({ type: 'text', text: '', cache_control: { type: 'ephemeral' } }))).rejects.toMatchObject({ status: 400 });
      await expect(client.messages.create(withMark({ type: 'text', text: 'x', cache_control: { type: 'persistent' } }))).rejects.toMatchObject({ status: 400 });
      const five = Array.from({ length: 5 }, () => ({ type: 'text' as const, text: 'x', cache_control: { type: 'ephemeral' as const } }));
      await expect(client.messages.create({ ...marked, messages: [{ role: 'user', content: five }] })).rejects.toMatchObject({ status: 400 });
    } finally {
      await fake.close();
    }
  });
});
