/**
 * A two-tool support agent built with the AI SDK (ai 7, @ai-sdk/openai 4). It knows nothing of
 * agent-evals: `otel: true` in evals.config.ts reads its tool calls and usage from the spans it
 * emits. AI SDK 7 emits spans through a registered telemetry integration: with @ai-sdk/otel
 * installed, agent-evals registers its `OpenTelemetry` integration while the trials run, unless the
 * process registered one itself (an app that exports its traces does, at start-up:
 * `registerTelemetry(new OpenTelemetry())`, from 'ai' and '@ai-sdk/otel').
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, tool } from 'ai';
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
    instructions: 'You are a store support agent. Look orders up before answering; refund only refundable orders.',
    prompt: message,
    tools: { orders_lookup: ordersLookup, refunds_issue: refundsIssue },
    stopWhen: isStepCount(5),
    // On whenever an integration is registered (AI SDK 7); the function id names the call in the spans.
    telemetry: { functionId: 'support-agent' },
    ...(abortSignal ? { abortSignal } : {}),
  });
  return result.text;
}
