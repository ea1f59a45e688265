/**
 * The tiny order store both framework examples' tools act on. A refund is refused (the tool
 * throws) for an order not delivered yet: the examples show how each framework reports that error.
 */
export interface Order {
  orderId: string;
  status: 'delivered' | 'in_transit';
  totalUsd: number;
}

const ORDERS: Record<string, Order> = {
  A1: { orderId: 'A1', status: 'delivered', totalUsd: 42 },
  B2: { orderId: 'B2', status: 'in_transit', totalUsd: 18 },
};

export const TOOL_DESCRIPTIONS = {
  orders_lookup: 'Look up an order by id: its status and total.',
  refunds_issue: 'Refund a delivered order in full.',
} as const;

export const INSTRUCTIONS = 'You are a store support agent. Look an order up before you act on it; refund only delivered orders.';

export function lookupOrder(orderId: string): Order | { error: string } {
  return ORDERS[orderId] ?? { error: `no order ${orderId}` };
}

export function issueRefund(orderId: string): { refundId: string; orderId: string; amountUsd: number } {
  const order = ORDERS[orderId];
  if (!order) throw new Error(`no order ${orderId}`);
  if (order.status !== 'delivered') throw new Error(`order ${orderId} is not delivered yet: refunds are issued after delivery`);
  return { refundId: `R-${orderId}`, orderId, amountUsd: order.totalUsd };
}
