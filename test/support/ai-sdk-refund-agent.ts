/**
 * refund-agent.ts's two-tool agent written with the AI SDK (`generateText` over the Chat Completions
 * provider, tools with `execute`), for the import test of AI SDK 7's OpenTelemetry spans. The same
 * fake script answers it (refund-agent.ts `refundScript`).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import type { AgentRun } from '../../src/core/agent-run.js';
import { REFUND_RESULTS } from './refund-agent.js';

const byId = z.object({ id: z.string() });

/**
 * `callOptions` go to `generateText` as they are: AI SDK 7's `runtimeContext` and `telemetry`, which
 * the previous line's types (AI SDK 6) do not name.
 */
export async function aiSdkRefundAgent(input: string, baseURL: string, callOptions: Record<string, unknown> = {}): Promise<AgentRun> {
  const openai = createOpenAI({ baseURL, apiKey: 'sk-test' });
  const result = await generateText({
    model: openai.chat('gpt-4o-mini'),
    system: 'You are a support agent. Use the tools.',
    prompt: input,
    tools: {
      orders_lookup: tool({ description: 'Find an order by id', inputSchema: byId, execute: (args) => Promise.resolve(REFUND_RESULTS['orders_lookup']!(args)) }),
      issue_refund: tool({ description: 'Refund an order', inputSchema: byId, execute: (args) => Promise.resolve(REFUND_RESULTS['issue_refund']!(args)) }),
    },
    stopWhen: stepCountIs(5),
    ...callOptions,
  });
  return { reply: result.text, steps: result.steps.map((s) => ({ toolCalls: s.toolCalls.map((c) => ({ name: c.toolName, args: c.input })) })) };
}
