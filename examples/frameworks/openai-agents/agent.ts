/**
 * A small support agent built with the OpenAI Agents SDK (written for @openai/agents 0.20 with
 * openai 7, the project's own dependency; the same code runs on 0.14 with openai 6): two tools (look
 * an order up, issue a refund). Each run gets the OpenAI client it is handed, so a trial can pass one
 * whose `fetch` records usage (`ctx.fetch('openai')`) and concurrent trials never share a client.
 */
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents';
import type OpenAI from 'openai';
import { z } from 'zod';

const ORDERS: Record<string, { status: string; total: string; email: string; daysSinceDelivery: number }> = {
  A1049: { status: 'delivered', total: '$42.00', email: 'ann@example.com', daysSinceDelivery: 3 },
  A0990: { status: 'delivered', total: '$18.50', email: 'cy@example.com', daysSinceDelivery: 45 },
};

function findOrder(orderId: string) {
  const order = ORDERS[orderId];
  if (!order) throw new Error(`no order ${orderId}`);
  return order;
}

const ordersLookup = tool({
  name: 'orders_lookup',
  description: 'Look up an order by its id.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId, ...findOrder(orderId) }),
});

/** A refusal whose reason the customer should hear. */
class RefundRefused extends Error {}

const refundsIssue = tool({
  name: 'refunds_issue',
  description: 'Refund a delivered order in full. Only within 30 days of delivery.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => {
    const order = findOrder(orderId);
    // A throwing tool: the model is shown the errorFunction's text, the trace keeps the call as an error.
    if (order.daysSinceDelivery > 30) throw new RefundRefused(`order ${orderId} is outside the 30-day refund window`);
    return { refundId: `R-${orderId}`, amount: order.total };
  },
  // From 0.20 the SDK shows the model a fixed text for any thrown error; the refusal's reason is
  // approved for the customer, anything else stays hidden.
  errorFunction: (_context, error) => (error instanceof RefundRefused ? `Refund refused: ${error.message}` : 'The refund tool failed.'),
});

export const supportAgent = new Agent({
  name: 'support',
  instructions: 'You are a store support agent. Look an order up before acting on it. Refund only when the customer gave the email on the order.',
  model: 'gpt-5.4-mini',
  tools: [ordersLookup, refundsIssue],
});

/** Runs the agent on one message with the given client (the Responses API, as the SDK defaults to). */
export function runSupportAgent(input: string, client: OpenAI) {
  const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client }) });
  return runner.run(supportAgent, input);
}
