/**
 * The fake OpenAI model the framework examples talk to: it plays the support agent of
 * examples/frameworks/orders.ts from what each request carries (the user's order id, the tool
 * results so far), and keeps the usage it served per conversation so a test can hold the run's
 * usage and cost to it.
 */
import { expect } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import type { FakeUsage, Scripted } from '../support/fake-server.js';

export const SERVED_MODEL = 'gpt-4.1-mini-2025-04-14';

/** gpt-4.1-mini's bundled price, USD per million tokens. */
const RATE = { input: 0.4, cachedInput: 0.1, output: 1.6 };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : '';
}

export function storeModel() {
  const served = new Map<string, FakeUsage[]>();
  const script = (body: any): Scripted => {
    const messages: any[] = body.messages ?? [];
    const user = textOf(messages.find((m) => m.role === 'user')?.content);
    const results = messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
    const orderId = /\b([A-Z]\d)\b/.exec(user)?.[1] ?? 'none';
    // Each call of a conversation costs more than the last, and reuses a cached prefix after the first.
    const n = results.length;
    const usage: FakeUsage = { input: 300 + 150 * n, output: 20 + 5 * n, cached: n > 0 ? 128 : 0, reasoning: 4 };
    served.set(user, [...(served.get(user) ?? []), usage]);
    if (n === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId } }], usage, model: SERVED_MODEL };
    if (/refund/i.test(user) && n === 1) return { toolCalls: [{ name: 'refunds_issue', args: { orderId } }], usage, model: SERVED_MODEL };
    return { text: `Order ${orderId}: ${results.join(' | ')}`, usage, model: SERVED_MODEL };
  };
  const servedFor = (input: string) => {
    const calls = served.get(input) ?? [];
    const sum = (f: (u: FakeUsage) => number) => calls.reduce((a, u) => a + f(u), 0);
    const inputTokens = sum((u) => u.input ?? 0);
    const cachedInputTokens = sum((u) => u.cached ?? 0);
    const outputTokens = sum((u) => u.output ?? 0);
    return {
      calls: calls.length,
      inputTokens,
      outputTokens,
      cachedInputTokens,
      reasoningTokens: sum((u) => u.reasoning ?? 0),
      costUsd: ((inputTokens - cachedInputTokens) * RATE.input + cachedInputTokens * RATE.cachedInput + outputTokens * RATE.output) / 1e6,
    };
  };
  return {
    script,
    servedFor,
    /** Asserts `usage` is what the fake served for the conversation that began with `input` (cost to 1e-12 USD). */
    expectServed(usage: Usage, input: string) {
      const { costUsd, ...tokens } = servedFor(input);
      expect(tokens.calls).toBeGreaterThan(0);
      expect({ ...usage, costUsd: undefined }).toEqual({ ...tokens, costUsd: undefined });
      expect(usage.costUsd).toBeCloseTo(costUsd, 12);
    },
  };
}
