/**
 * A Mastra 1.x agent with two tools, on the AI SDK's OpenAI provider (`@ai-sdk/openai` 4, the one
 * released with `ai` 7; Mastra 1.x takes the AI SDK v5, v6 and v7 providers) speaking Chat
 * Completions. `fetch` is handed to the provider (a function target passes `ctx.fetch('openai')` to
 * record every call's usage).
 */
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { createTool } from '@mastra/core/tools';
import { createOpenAI } from '@ai-sdk/openai';
import { z } from 'zod';
import { INSTRUCTIONS, issueRefund, lookupOrder, TOOL_DESCRIPTIONS } from '../orders.js';

const orderId = z.object({ orderId: z.string() });

// Mastra 1.x calls `execute(inputData, context)` with the validated input first.
const ordersLookup = createTool({
  id: 'orders_lookup',
  description: TOOL_DESCRIPTIONS.orders_lookup,
  inputSchema: orderId,
  execute: async ({ orderId }) => lookupOrder(orderId),
});

const refundsIssue = createTool({
  id: 'refunds_issue',
  description: TOOL_DESCRIPTIONS.refunds_issue,
  inputSchema: orderId,
  execute: async ({ orderId }) => issueRefund(orderId),
});

export function supportAgent(options: { fetch?: typeof globalThis.fetch } = {}) {
  // The key comes from OPENAI_API_KEY; OPENAI_BASE_URL points the provider at another endpoint.
  const openai = createOpenAI(options.fetch ? { fetch: options.fetch } : {});
  const support = new Agent({
    id: 'support',
    name: 'support',
    instructions: INSTRUCTIONS,
    // Mastra 1.71 types AI SDK v7 models against its own pinned @ai-sdk/provider 4.0.17; @ai-sdk/openai
    // 4.0.118 builds on 4.0.38, whose finish reasons add 'interrupted', so TypeScript sees two model
    // types. At run time Mastra drives the model as any v7 model (the example's test runs it).
    model: openai.chat('gpt-5.4-mini') as MastraModelConfig,
    tools: { orders_lookup: ordersLookup, refunds_issue: refundsIssue },
  });
  // Registered with logging off: Mastra would log each tool error with its stack to the console.
  return new Mastra({ agents: { support }, logger: false }).getAgent('support');
}
