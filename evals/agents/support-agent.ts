import type { AgentRun, TargetContext } from 'agent-evals';
import { createStore, POLICIES, type Order } from './store.js';

/**
 * A deterministic support agent with three tools (orders_lookup, policy_lookup, refunds_issue).
 * No model: it stands in for a real agent so the example suites run offline, and it follows the
 * store's rules: a refund needs the order's email and a delivery within 30 days.
 */
export async function supportAgent(input: string, ctx: TargetContext): Promise<string | AgentRun> {
  const store = createStore();
  const text = input.toLowerCase();
  const orderId = /\b([A-Z]\d{4})\b/.exec(input)?.[1];
  const email = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(input)?.[0];

  if (text.includes('policy') && !orderId) {
    const topic = text.includes('ship') ? 'shipping' : 'refunds';
    const policy = await ctx.tool('policy_lookup', { topic }, ({ topic }) => POLICIES[topic]!);
    return `Our ${topic} policy: ${policy}`;
  }
  // No tool and no model: an empty step list says so, and `maxSteps` counts 0. A bare reply would leave
  // the steps unknown (a function target's own SDK client is not seen), and `maxSteps` would fail.
  if (!orderId) return { reply: 'Could you tell me your order number? It looks like A1234.', steps: [] };

  let order: Order;
  try {
    order = await ctx.tool('orders_lookup', { orderId }, ({ orderId }) => store.lookup(orderId));
  } catch {
    return `I could not find order ${orderId}. Please check the order number.`;
  }

  if (text.includes('json')) {
    return JSON.stringify({ order: { id: order.id, status: order.status, items: order.items } });
  }
  if (!text.includes('refund')) {
    return `Order ${order.id} is ${order.status}.${order.status === 'shipped' ? ' It should arrive in 3 to 5 business days.' : ''}`;
  }

  const policy = await ctx.tool('policy_lookup', { topic: 'refunds' }, ({ topic }) => POLICIES[topic]!);
  if (!email || email.toLowerCase() !== order.email) {
    return `I found order ${order.id}. Before I can refund it, please verify you own the order by confirming the email address on it. (${policy})`;
  }
  if (order.status !== 'delivered' || (order.deliveredDaysAgo ?? 0) > 30) {
    return `Order ${order.id} is not eligible for a refund: refunds are available within 30 days of delivery.`;
  }
  const refund = await ctx.tool('refunds_issue', { orderId: order.id }, ({ orderId }) => store.refund(orderId));
  return `Thanks, your ownership is verified. A refund of $${refund.amountUsd.toFixed(2)} for order ${refund.orderId} has been issued.`;
}
