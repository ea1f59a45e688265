/**
 * The example store's tools for a model-agent target (evals.live.config.ts): the same store and
 * policies the offline example agent uses, exposed to a real model through tool().
 */
import { tool, type ToolContext } from 'agent-evals';
import { z } from 'zod';
import { createStore, POLICIES } from '../../evals/agents/store.js';

/** One store per trial, shared by its tools: a refund in one trial never leaks into another. */
const store = (ctx: ToolContext) => ctx.state('store', createStore);

export const ordersLookup = tool({
  name: 'orders_lookup',
  description: 'Look up an order by its id (a letter and four digits, e.g. A1049): status, email on file, total, items, refund state.',
  parameters: z.object({ orderId: z.string().describe('The order id, e.g. A1049') }),
  execute: ({ orderId }, ctx) => store(ctx).lookup(orderId.toUpperCase()),
});

export const policyLookup = tool({
  name: 'policy_lookup',
  description: 'Read the store policy on a topic.',
  parameters: z.object({ topic: z.enum(['refunds', 'shipping']) }),
  execute: ({ topic }) => POLICIES[topic]!,
});

export const refundsIssue = tool({
  name: 'refunds_issue',
  description: 'Refund an order in full. Only after the customer verified ownership and the order is eligible under the refunds policy.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }, ctx) => store(ctx).refund(orderId.toUpperCase()),
});

export const storeTools = [ordersLookup, policyLookup, refundsIssue];
