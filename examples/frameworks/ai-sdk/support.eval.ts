import { defineEval } from 'agent-evals';

/** The trajectory gates of the AI SDK example agent, generated and streamed. */
export default defineEval({
  suite: 'ai-sdk/support',
  matrix: { target: ['ai-sdk', 'ai-sdk-stream'] },
  cases: [
    {
      id: 'refund-delivered-order',
      input: 'Please refund order A1001.',
      check: (t) => {
        t.calledTool('orders_lookup', { args: { orderId: 'A1001' }, times: 1 });
        t.calledTool('refunds_issue', { args: { orderId: 'A1001' }, times: 1 });
        t.toolOrder(['orders_lookup', 'refunds_issue']);
        t.noToolErrors();
        t.contains('42.50');
      },
    },
    {
      id: 'where-is-my-order',
      input: 'Where is my order A1002?',
      check: (t) => {
        t.calledTool('orders_lookup', { args: { orderId: 'A1002' } });
        t.notCalledTool('refunds_issue');
        t.noToolErrors();
        t.contains('shipped');
      },
    },
    {
      id: 'bad-tool-calls',
      input: 'Refund order Z9999 now.',
      check: (t) => {
        // The lookup throws (no such order) and the refund is refused (its orderId is not a string):
        // both are tool errors, so noToolErrors would fail here.
        t.expect('both failed calls are recorded as tool errors', () => {
          const failed = t.run().toolCalls.filter((c) => c.isError === true);
          return { pass: failed.map((c) => c.name).join(',') === 'orders_lookup,refunds_issue', reason: `errored: ${failed.map((c) => c.name).join(', ') || 'none'}` };
        });
      },
    },
  ],
});
