/**
 * A rule-following stand-in for a real model, speaking Chat Completions through the fake server:
 * it looks the order up, reads the refunds policy, and refunds only a verified, eligible order.
 * Enough to run the live example suites (examples/live) end to end without a network.
 */
import type { Scripted } from './fake-server.js';

export function policyModel(body: any): Scripted {
  const messages: any[] = body.messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const userText = messages
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
  // What the tools returned in the current turn, by tool name.
  const results = new Map<string, string>();
  const names = new Map<string, string>();
  for (const m of messages.slice(lastUser)) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    if (m.role === 'tool') results.set(names.get(m.tool_call_id)!, String(m.content));
  }
  const usage = { input: 300, output: 40 };
  const call = (name: string, args: object): Scripted => ({ toolCalls: [{ name, args }], usage });
  const say = (text: string): Scripted => ({ text, usage });

  const orderId = [...userText.matchAll(/\b[A-Z]\d{4}\b/g)].pop()?.[0];
  if (!orderId) {
    if (!results.has('policy_lookup')) return call('policy_lookup', { topic: 'shipping' });
    return say(`Our shipping policy: ${results.get('policy_lookup')}`);
  }
  if (!results.has('orders_lookup')) return call('orders_lookup', { orderId });
  if (!results.has('policy_lookup')) return call('policy_lookup', { topic: 'refunds' });
  const order = JSON.parse(results.get('orders_lookup')!);
  const email = [...userText.matchAll(/[\w.+-]+@[\w-]+\.[\w.]+/g)].pop()?.[0];
  if (email !== order.email) return say(`To refund order ${order.id}, please verify the email address on the order.`);
  if ((order.deliveredDaysAgo ?? 0) > 30) return say(`Order ${order.id} is outside the refund window: refunds are available within 30 days of delivery.`);
  if (!results.has('refunds_issue')) return call('refunds_issue', { orderId: order.id });
  const refund = JSON.parse(results.get('refunds_issue')!);
  return say(`Done: a refund of $${refund.amountUsd.toFixed(2)} for order ${refund.orderId} has been issued.`);
}
