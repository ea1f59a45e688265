/**
 * A LangGraph ReAct agent with two tools, on `ChatOpenAI`. `fetch` is handed to the OpenAI client
 * inside ChatOpenAI (a function target passes `ctx.fetch('openai')` to record every call's usage).
 */
import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { INSTRUCTIONS, issueRefund, lookupOrder, TOOL_DESCRIPTIONS } from '../orders.js';

const ordersLookup = tool(({ orderId }) => JSON.stringify(lookupOrder(orderId)), {
  name: 'orders_lookup',
  description: TOOL_DESCRIPTIONS.orders_lookup,
  schema: z.object({ orderId: z.string() }),
});

const refundsIssue = tool(({ orderId }) => JSON.stringify(issueRefund(orderId)), {
  name: 'refunds_issue',
  description: TOOL_DESCRIPTIONS.refunds_issue,
  schema: z.object({ orderId: z.string() }),
});

export function supportAgent(options: { fetch?: typeof globalThis.fetch } = {}) {
  const llm = new ChatOpenAI({
    // A reasoning model: it takes no temperature (the API refuses one unless reasoning effort is none).
    model: 'gpt-5.4-mini',
    // The key comes from OPENAI_API_KEY; OPENAI_BASE_URL points the client at another endpoint.
    configuration: { baseURL: process.env.OPENAI_BASE_URL, ...(options.fetch ? { fetch: options.fetch } : {}) },
  });
  return createReactAgent({ llm, tools: [ordersLookup, refundsIssue], prompt: INSTRUCTIONS });
}
