/** Which models embed (embedding-models.ts), each priced and sourced; what a model that does not embed is told. */
import { describe, expect, it } from 'vitest';
import { embeddingModelProblem, OPENAI_EMBEDDING_MODELS } from '../../src/providers/embedding-models.js';
import { priceUsage } from '../../src/providers/pricing.js';

describe('embedding models', () => {
  it('every OpenAI embedding model is priced per input token and says where its facts were read', () => {
    for (const row of OPENAI_EMBEDDING_MODELS) {
      expect(priceUsage(`openai:${row.model}`, { inputTokens: 1_000_000, outputTokens: 0 }), row.model).toBeGreaterThan(0);
      expect(row.source).not.toMatch(/https?:|www\./);
      expect(row.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(priceUsage('openai:text-embedding-3-small', { inputTokens: 1_000_000, outputTokens: 0 })).toBe(0.02);
  });

  it('OpenAI embedding models, OpenAI-compatible servers and fake embed; chat models and Anthropic do not', () => {
    for (const ok of ['fake', 'openai:text-embedding-3-small', 'openai:text-embedding-3-large', 'ollama:nomic-embed-text']) expect(embeddingModelProblem(ok), ok).toBeUndefined();
    expect(embeddingModelProblem('openai:gpt-5.5')).toMatch(/openai:gpt-5\.5 is not an embedding model \(OpenAI's are text-embedding-3-large, /);
    expect(embeddingModelProblem('anthropic:claude-haiku-5-5')).toMatch(/anthropic has no embeddings API/);
  });
});
