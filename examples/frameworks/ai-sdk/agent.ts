/**
 * A small support agent built with the Vercel AI SDK (ai 7, @ai-sdk/openai 4) as people build one:
 * two tools made with `tool()` and zod, an OpenAI chat model from `createOpenAI`, and a tool loop of
 * up to five steps. Nothing here knows about agent-evals: evals.config.ts turns its result into an
 * AgentRun.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { z } from 'zod';

export const INSTRUCTIONS = 'You are the support agent of a web store. Look an order up before you answer about it. Refund only delivered orders.';

const ORDERS: Record<string, { orderId: string; status: 'delivered' | 'shipped'; totalUsd: number }> = {
  A1001: { orderId: 'A1001', status: 'delivered', totalUsd: 42.5 },
  A1002: { orderId: 'A1002', status: 'shipped', totalUsd: 19.99 },
};

export const tools = {
  orders_lookup: tool({
    description: 'Look up an order by its id (a letter and four digits, e.g. A1001): status and total.',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => {
      const order = ORDERS[orderId];
      if (!order) throw new Error(`no order ${orderId}`);
      return order;
    },
  }),
  refunds_issue: tool({
    description: 'Refund a delivered order in full.',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => {
      const order = ORDERS[orderId];
      if (order?.status !== 'delivered') throw new Error(`order ${orderId} cannot be refunded`);
      return { orderId, refundedUsd: order.totalUsd };
    },
  }),
};

export interface AgentOptions {
  /** The HTTP client's fetch (evals hand in `ctx.fetch('openai')` to record usage off the wire). */
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/** Key and endpoint from OPENAI_API_KEY and OPENAI_BASE_URL, read when the agent runs. */
function chatModel(options: AgentOptions) {
  return createOpenAI(options.fetch ? { fetch: options.fetch } : {}).chat('gpt-5.4-mini');
}

function call(input: string, options: AgentOptions) {
  return {
    model: chatModel(options),
    instructions: INSTRUCTIONS,
    prompt: input,
    tools,
    stopWhen: isStepCount(5),
    ...(options.signal ? { abortSignal: options.signal } : {}),
  };
}

/** The agent answering in one go. */
export function supportAgent(input: string, options: AgentOptions = {}) {
  return generateText(call(input, options));
}

/** The same agent streaming its answer. */
export function supportAgentStream(input: string, options: AgentOptions = {}) {
  return streamText(call(input, options));
}
