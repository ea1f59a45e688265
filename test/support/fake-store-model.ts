/**
 * A scripted model for the store fixtures: the first call of a conversation looks the order up,
 * the call after the tool result answers with its status. Usage is fixed per step so tests can
 * compute exact totals and costs.
 */
import type { Scripted } from './fake-server.js';

export const LOOKUP_USAGE = { input: 100, output: 20, cached: 40 };
export const ANSWER_USAGE = { input: 200, output: 50 };

/** gpt-4.1-mini: $0.40 input, $0.10 cached input, $1.60 output per 1M tokens. */
export const GPT_41_MINI_TRIAL_COST = (60 * 0.4 + 40 * 0.1 + 20 * 1.6 + 200 * 0.4 + 50 * 1.6) / 1e6;

export function storeModel(body: any): Scripted {
  const messages: any[] = body.messages;
  const last = messages[messages.length - 1];
  // The server reports a dated id for gpt-4.1-mini, as OpenAI does; pricing resolves it to the family.
  const model = body.model === 'gpt-4.1-mini' ? 'gpt-4.1-mini-2025-04-14' : body.model;
  if (last.role === 'tool') {
    const order = JSON.parse(last.content);
    return { text: `Order ${order.id} is ${order.status}.`, usage: ANSWER_USAGE, model };
  }
  const orderId = /\b[A-Z]\d{4}\b/.exec(String(last.content))?.[0] ?? 'none';
  return { toolCalls: [{ name: 'orders_lookup', args: { orderId } }], usage: LOOKUP_USAGE, model };
}
