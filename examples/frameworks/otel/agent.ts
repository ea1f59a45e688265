/**
 * A two-tool support agent built with the AI SDK, telemetry on. It knows nothing of agent-evals:
 * `otel: true` in evals.config.ts reads its tool calls and usage from the spans it emits.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const ORDERS: Record<string, { status: string; total: number; refundable: boolean }> = {
  A1049: { status: 'delivered', total: 42, refundable: true },
  A1050: { status: 'delivered 45 days ago', total: 19, refundable: false },
};

const ordersLookup = tool({
  description: 'Look up an order by its id (e.g. A1049): status, total, whether it can be refunded.',
  inputSchema: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => {
    const order = ORDERS[orderId.toUpperCase()];
    if (!order) throw new Error(`no order ${orderId}`);
    return Promise.resolve({ orderId, ...order });
  },
});

const refundsIssue = tool({
  description: 'Refund an order in full; only for a refundable order.',
  inputSchema: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => {
    if (!ORDERS[orderId.toUpperCase()]?.refundable) throw new Error(`order ${orderId} is past the 30-day refund window`);
    return Promise.resolve({ orderId, refunded: true });
  },
});

/** Answers one customer message; the key and endpoint come from OPENAI_API_KEY / OPENAI_BASE_URL. */
export async function supportAgent(message: string, abortSignal?: AbortSignal): Promise<string> {
  const openai = createOpenAI({ ...(process.env['OPENAI_BASE_URL'] ? { baseURL: process.env['OPENAI_BASE_URL'] } : {}) });
  const result = await generateText({
    model: openai.chat('gpt-5.4-mini'),
    system: 'You are a store support agent. Look orders up before answering; refund only refundable orders.',
    prompt: message,
    tools: { orders_lookup: ordersLookup, refunds_issue: refundsIssue },
    stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true },
    ...(abortSignal ? { abortSignal } : {}),
  });
  return result.text;
}
