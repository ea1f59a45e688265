/**
 * A two-tool agent loop on the real `openai` client (Chat Completions): it looks an order up, refunds
 * it, and answers. The import tests trace it with an OpenTelemetry instrumentation, import the trace,
 * and run the imported case against it (an evals.config target), all against test/support/fake-openai.ts
 * answering `refundScript`.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AgentRun, Step } from '../../src/core/agent-run.js';
import type { Scripted } from './fake-server.js';

const byId = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
export const REFUND_TOOLS: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'orders_lookup', description: 'Find an order by id', parameters: byId } },
  { type: 'function', function: { name: 'issue_refund', description: 'Refund an order', parameters: byId } },
];

/** What each tool returns. */
export const REFUND_RESULTS: Record<string, (args: { id: string }) => unknown> = {
  orders_lookup: (args) => ({ id: args.id, status: 'delivered', damaged: true }),
  issue_refund: (args) => ({ id: args.id, refunded: true }),
};

/** The agent: `input` in, its reply and the tools it called (one step per model call) out. */
export async function refundAgent(input: string, baseURL: string): Promise<AgentRun> {
  const client = new OpenAI({ baseURL, apiKey: 'sk-test' });
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a support agent. Use the tools.' },
    { role: 'user', content: input },
  ];
  const steps: Step[] = [];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: REFUND_TOOLS });
    const message = completion.choices[0]!.message;
    const calls = (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
    steps.push({ toolCalls: calls.map((c) => ({ name: c.function.name, args: JSON.parse(c.function.arguments) as unknown })) });
    if (calls.length === 0) return { reply: message.content ?? '', steps };
    messages.push(message);
    for (const call of calls) {
      const result = REFUND_RESULTS[call.function.name]!(JSON.parse(call.function.arguments) as { id: string });
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error('the agent did not finish in 5 turns');
}

/** The fake model's answers to it: look the order up, then refund it, then say so. */
export function refundScript(body: { messages: Array<{ role: string; content?: unknown }> }): Scripted {
  const done = body.messages.filter((m) => m.role === 'tool').length;
  const asked = body.messages.find((m) => m.role === 'user')?.content;
  const id = /[A-Z]\d{4}/.exec(typeof asked === 'string' ? asked : '')?.[0] ?? 'X0000';
  if (done === 0) return { toolCalls: [{ name: 'orders_lookup', args: { id } }], usage: { input: 40, output: 8 } };
  if (done === 1) return { toolCalls: [{ name: 'issue_refund', args: { id } }], usage: { input: 60, output: 8 } };
  return { text: `I refunded order ${id}.`, usage: { input: 80, output: 6 } };
}
