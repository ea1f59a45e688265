/**
 * A two-tool AI SDK agent with telemetry on (unless told off), the fake OpenAI script it runs against, and what each
 * trial should record. Trial `k` is told its number, so every request, tool argument and token
 * count of that trial carries `k`: a run that held another trial's spans would show it. Shared so
 * the same agent can be read through its adapter and through `otel: true` and compared.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import type { Scripted } from './fake-server.js';

export const MODEL_ID = 'gpt-4.1-mini';

/** What the agent's telemetry records beyond the spans: a tracer of the test's own, the user's `functionId` and `metadata`. */
export interface OrderTelemetry {
  tracer?: Tracer;
  functionId?: string;
  metadata?: Record<string, string>;
}

/** The agent for trial `k`: looks the order up, tries a refund (the tool throws), then answers. */
export function runOrderAgent(
  baseURL: string,
  input: string,
  k: number,
  { abortSignal, fetch, telemetry = true, recorded = {} }: { abortSignal?: AbortSignal; fetch?: typeof globalThis.fetch; telemetry?: boolean; recorded?: OrderTelemetry } = {},
) {
  const openai = createOpenAI({ baseURL, apiKey: 'sk-test-otel-000000', ...(fetch ? { fetch } : {}) });
  return generateText({
    model: openai.chat(MODEL_ID),
    prompt: `${input} (trial ${k})`,
    tools: {
      lookup_order: tool({
        description: 'Looks an order up by id',
        inputSchema: z.object({ orderId: z.string() }),
        execute: ({ orderId }) => Promise.resolve({ orderId, status: 'shipped' }),
      }),
      refund: tool({
        description: 'Refunds an order',
        inputSchema: z.object({ orderId: z.string() }),
        execute: ({ orderId }): Promise<{ refunded: boolean }> => Promise.reject(new Error(`refunds are closed for ${orderId}`)),
      }),
    },
    stopWhen: stepCountIs(4),
    experimental_telemetry: { isEnabled: telemetry, ...recorded },
    ...(abortSignal ? { abortSignal } : {}),
  });
}

const orderOf = (k: number) => `A-${k}`;
const trialOf = (body: any): number => Number(/\(trial (\d+)\)/.exec(String(body.messages.find((m: any) => m.role === 'user')?.content))?.[1]);

/** Per trial: both tools at once on the first request, the answer once their results are in. */
export function orderScript(body: any): Scripted {
  const k = trialOf(body);
  if (!body.messages.some((m: any) => m.role === 'tool')) {
    return {
      toolCalls: [
        { name: 'lookup_order', args: { orderId: orderOf(k) } },
        { name: 'refund', args: { orderId: orderOf(k) } },
      ],
      usage: { input: 100 + k, output: 10 + k, cached: k },
    };
  }
  return { text: `Order ${orderOf(k)} has shipped; its refund failed.`, usage: { input: 200 + k, output: 20 + k, reasoning: k } };
}

/** What trial `k`'s run must hold: its tool calls in order, and the usage the fake served it. */
export function expectedTrial(k: number) {
  const orderId = orderOf(k);
  return {
    reply: `Order ${orderId} has shipped; its refund failed.`,
    toolCalls: [
      { name: 'lookup_order', args: { orderId }, result: { orderId, status: 'shipped' }, isError: false },
      { name: 'refund', args: { orderId }, result: `refunds are closed for ${orderId}`, isError: true },
    ],
    /** One entry per model call, in order. */
    calls: [
      { inputTokens: 100 + k, outputTokens: 10 + k, ...(k ? { cachedInputTokens: k } : {}) },
      { inputTokens: 200 + k, outputTokens: 20 + k, ...(k ? { reasoningTokens: k } : {}) },
    ],
    model: `openai:${MODEL_ID}`,
  };
}
