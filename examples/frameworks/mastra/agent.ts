/**
 * A Mastra agent with two tools, on the AI SDK v5 OpenAI provider (`@ai-sdk/openai` 2.x, installed
 * here under the alias `@ai-sdk/openai-v5`) speaking Chat Completions. `fetch` is handed to the
 * provider (a function target passes `ctx.fetch('openai')` to record every call's usage).
 */
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createOpenAI } from '@ai-sdk/openai-v5';
import { z } from 'zod';
import { INSTRUCTIONS, issueRefund, lookupOrder, TOOL_DESCRIPTIONS } from '../orders.js';

const orderId = z.object({ orderId: z.string() });

const ordersLookup = createTool({
  id: 'orders_lookup',
  description: TOOL_DESCRIPTIONS.orders_lookup,
  inputSchema: orderId,
  execute: async ({ context }) => lookupOrder(context.orderId),
});

const refundsIssue = createTool({
  id: 'refunds_issue',
  description: TOOL_DESCRIPTIONS.refunds_issue,
  inputSchema: orderId,
  execute: async ({ context }) => issueRefund(context.orderId),
});

export function supportAgent(options: { fetch?: typeof globalThis.fetch } = {}) {
  // The key comes from OPENAI_API_KEY; OPENAI_BASE_URL points the provider at another endpoint.
  const openai = createOpenAI(options.fetch ? { fetch: options.fetch } : {});
  const support = new Agent({ name: 'support', instructions: INSTRUCTIONS, model: openai.chat('gpt-5.4-mini'), tools: { orders_lookup: ordersLookup, refunds_issue: refundsIssue } });
  // Registered with logging off: Mastra would log each tool error with its stack to the console.
  return new Mastra({ agents: { support }, logger: false }).getAgent('support');
}
