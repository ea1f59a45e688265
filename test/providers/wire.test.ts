import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toAnthropicMessages, toAnthropicParams } from '../../src/providers/wires/anthropic/anthropic-wire.js';
import { toOpenAIMessages } from '../../src/providers/wires/openai/openai-wire.js';
import { redactSecrets } from '../../src/providers/errors.js';

describe('Anthropic message mapping', () => {
  it('joins system turns into `system`, and a user turn after tool results into their message', () => {
    const { system, messages } = toAnthropicMessages({
      system: 'Top.',
      messages: [
        { role: 'system', content: 'Also this.' },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'a', args: undefined }] },
        { role: 'tool', toolCallId: 't1', name: 'a', content: 'r1' },
        { role: 'user', content: 'and then?' },
        { role: 'assistant', content: 'done' },
      ],
    });
    expect(system).toBe('Top.\n\nAlso this.');
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'a', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'r1' },
          { type: 'text', text: 'and then?' },
        ],
      },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('omits an empty assistant turn', () => {
    const { messages } = toAnthropicMessages({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('sends no temperature to any family: API version 2026-10-21 refuses it on every model', () => {
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-3-5-haiku-latest', 'claude-opus-4-7', 'claude-sonnet-5']) {
      const params = toAnthropicParams(model, { messages: [{ role: 'user', content: 'x' }], temperature: 0 }, { maxTokens: 100 });
      expect(Object.keys(params)).not.toContain('temperature');
    }
  });
});

describe('OpenAI message mapping', () => {
  it('puts the system prompt first and keeps text-only assistant turns plain', () => {
    expect(
      toOpenAIMessages({
        system: 'S',
        messages: [
          { role: 'user', content: 'u' },
          { role: 'assistant', content: 'a' },
        ],
      }),
    ).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
    ]);
  });
});

describe('redactSecrets', () => {
  it('removes the given secrets and anything key- or bearer-shaped', () => {
    const text = 'bad key sk-proj-abcdefgh1234 and Bearer xyz.123 and custom-secret-value';
    const out = redactSecrets(text, ['custom-secret-value']);
    expect(out).not.toMatch(/abcdefgh1234|xyz\.123|custom-secret-value/);
  });
});

describe('lazy SDK loading', () => {
  it("imports the SDKs only in a wire's own modules, which its descriptor loads on first use", () => {
    const dir = join(import.meta.dirname, '../../src/providers');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const staticSdkImport = /^import\s+(?!type\b)[^;]*from\s+['"](openai|@google\/genai|@anthropic-ai\/(?:sdk|bedrock-sdk|vertex-sdk))['"]/m;
    const importers = files.filter((f) => staticSdkImport.test(readFileSync(join(dir, f), 'utf8')));
    expect(importers.sort()).toEqual([
      'wires/anthropic/anthropic-batch.ts',
      'wires/anthropic/anthropic.ts',
      'wires/bedrock/bedrock.ts',
      'wires/gemini/gemini-wire.ts',
      'wires/gemini/gemini.ts',
      'wires/openai-responses/responses-provider.ts',
      'wires/openai/openai.ts',
      'wires/vertex/vertex.ts',
    ]);
    // No module imports them statically but another SDK module (the cloud clients build on Anthropic's provider):
    // each descriptor (wires/<id>/index.ts) imports them when a call needs them.
    const staticImportOfThem = /^import\s+(?!type\b)[^;]*from\s+['"][^'"]*\/(openai|anthropic|anthropic-batch|gemini|gemini-wire|bedrock|vertex)\.js['"]/m;
    expect(files.filter((f) => staticImportOfThem.test(readFileSync(join(dir, f), 'utf8'))).sort()).toEqual([
      'wires/anthropic/anthropic-batch.ts',
      'wires/bedrock/bedrock.ts',
      'wires/gemini/gemini.ts',
      'wires/openai-responses/responses-provider.ts',
      'wires/vertex/vertex.ts',
    ]);
  });
});
