/** A small in-repo order store and policy book: the example agent's whole world. */

export interface Order {
  id: string;
  email: string;
  status: 'processing' | 'shipped' | 'delivered';
  totalUsd: number;
  deliveredDaysAgo?: number;
  refunded: boolean;
  items: Array<{ sku: string; name: string; qty: number }>;
}

const ORDERS: Order[] = [
  { id: 'A1049', email: 'ann@example.com', status: 'delivered', totalUsd: 42, deliveredDaysAgo: 5, refunded: false, items: [{ sku: 'MUG-01', name: 'Blue mug', qty: 2 }] },
  { id: 'A1050', email: 'bo@example.com', status: 'shipped', totalUsd: 19.5, refunded: false, items: [{ sku: 'TEE-M', name: 'T-shirt (M)', qty: 1 }] },
  { id: 'A0990', email: 'cy@example.com', status: 'delivered', totalUsd: 80, deliveredDaysAgo: 45, refunded: false, items: [{ sku: 'LAMP-2', name: 'Desk lamp', qty: 1 }] },
];

export const POLICIES: Record<string, string> = {
  refunds: 'Refunds are available within 30 days of delivery. Before a refund, the customer must verify ownership of the order by confirming the email address on it.',
  shipping: 'Orders ship within 2 business days. Shipped orders arrive in 3 to 5 business days.',
};

/** A fresh store per trial: refunds issued in one trial never leak into another. */
export function createStore() {
  const orders = new Map(ORDERS.map((o) => [o.id, { ...o, items: o.items.map((i) => ({ ...i })) }]));
  return {
    lookup(id: string): Order {
      const order = orders.get(id);
      if (!order) throw new Error(`order ${id} not found`);
      return { ...order };
    },
    refund(id: string): { orderId: string; amountUsd: number } {
      const order = orders.get(id);
      if (!order) throw new Error(`order ${id} not found`);
      if (order.refunded) throw new Error(`order ${id} was already refunded`);
      order.refunded = true;
      return { orderId: id, amountUsd: order.totalUsd };
    },
  };
}
