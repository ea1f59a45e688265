import { defineEval } from 'agent-evals';

export default defineEval({
  suite: 'support/orders',
  target: 'support-agent',
  tags: ['orders', 'smoke'],
  cases: [
    {
      id: 'status-as-json',
      input: 'Send me the status of order A1049 as JSON.',
      check: (t) => {
        t.isJson();
        t.jsonPath('$.order.status', 'delivered');
        t.jsonSchema({
          type: 'object',
          properties: { order: { type: 'object', properties: { id: { type: 'string' }, items: { type: 'array' } }, required: ['id', 'items'] } },
          required: ['order'],
        });
        t.calledTool('orders_lookup', { args: { orderId: 'A1049' }, times: 1 });
        t.notCalledTool('refunds_issue');
      },
    },
    {
      id: 'shipped-order',
      input: 'Where is my order A1050?',
      check: (t) => {
        t.equals('Order A1050 is shipped. It should arrive in 3 to 5 business days.');
        t.endsWith('business days.');
        t.lengthBetween(10, 200);
        t.maxToolCalls(1);
        // Pairwise against a vaguer answer, judged in both orders to catch position bias.
        t.judge().comparedTo('Your order is on its way.', 'Which reply tells the customer more precisely where their order is?');
        t.expect('reply names the order the tool returned', (ctx) => {
          const looked = t.run().toolCalls[0]?.args as { orderId?: string } | undefined;
          return { pass: looked?.orderId !== undefined && ctx.reply.includes(looked.orderId), reason: `looked up ${looked?.orderId}` };
        });
      },
    },
    {
      id: 'unknown-order',
      input: 'What happened to order Z9999?',
      check: (t) => {
        t.containsAny(['could not find', 'no such order']);
        t.notContains('refund', { caseSensitive: false });
        // The lookup fails: a tool error is expected here, so noToolErrors would be wrong.
        t.calledTool('orders_lookup', { atLeast: 1, atMost: 1 });
        t.expect('the failed lookup is recorded as a tool error', () => t.run().toolCalls.some((c) => c.isError === true));
      },
    },
    {
      id: 'policy-question',
      input: 'What is your shipping policy?',
      check: (t) => {
        t.calledTool('policy_lookup', { args: { topic: 'shipping' } });
        t.toolSequence(['policy_lookup']);
        t.contains('2 business days');
        t.judge().factuality('Orders ship within 2 business days and arrive 3 to 5 business days after shipping.').atLeast(0.75);
        // A free rubric graded on named choices: the judge picks a label, the map gives its score.
        t.judge().criteria('Does the reply state both the shipping and the delivery time?').choices({ both: 1, one: 0.5, neither: 0 }).atLeast(1);
        t.noToolErrors();
        t.maxSteps(1);
      },
    },
  ],
});
