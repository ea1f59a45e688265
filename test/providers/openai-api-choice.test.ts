import { describe, expect, it } from 'vitest';
import { chosenOpenAIApi } from '../../src/providers/wires/openai/api-choice.js';
import { specCapabilities } from '../../src/providers/wires.js';
import { parseModelSpec } from '../../src/providers/model-spec.js';

const choose = (input: unknown) => {
  const spec = parseModelSpec(input);
  return chosenOpenAIApi(spec, specCapabilities(spec));
};

describe('which OpenAI API a model spec calls', () => {
  it('sends models that take tools only on Responses there', () => {
    for (const model of ['gpt-6.1-sol', 'gpt-6.1-terra', 'gpt-6.2-sol', 'gpt-6-astra', 'gpt-6.2-astra', 'gpt-6.9-unknown']) {
      expect(choose(`openai:${model}`), model).toBe('responses');
    }
  });

  it('sends a model that takes tools on Chat Completions only at effort none to Responses unless none is configured', () => {
    expect(choose('openai:gpt-6-luna')).toBe('responses');
    expect(choose({ provider: 'openai', model: 'gpt-6-luna', reasoningEffort: 'low' })).toBe('responses');
    expect(choose({ provider: 'openai', model: 'gpt-6-luna', reasoningEffort: 'none' })).toBe('chat');
    expect(choose('openai:gpt-5.6-terra')).toBe('responses');
  });

  it('keeps every other model on Chat Completions, and the spec may force either', () => {
    expect(choose('openai:gpt-4.1-mini')).toBe('chat');
    expect(choose('openai:gpt-5.5')).toBe('chat');
    expect(choose('ollama:llama3.3')).toBe('chat');
    expect(choose({ provider: 'openai', model: 'gpt-6.2-sol', api: 'chat' })).toBe('chat');
    expect(choose({ provider: 'openai', model: 'gpt-4.1-mini', api: 'responses' })).toBe('responses');
  });

  it('refuses an api that is not one of the two', () => {
    expect(() => parseModelSpec({ provider: 'openai', model: 'gpt-4.1', api: 'completions' })).toThrow(/api/);
  });
});
