/**
 * The cases every framework example runs: which tools the support agent calls, in which order,
 * how a refused refund shows, and (on the target that uses only `ctx.fetch`) the tool it called and what it costs.
 */
import type { AssertionContext, EvalCase } from 'agent-evals';

/** The named tool was called and its call is recorded as an error. */
function toolErrorRecorded(tool: string) {
  return ({ run }: AssertionContext) => {
    const calls = (run.steps ?? []).flatMap((s) => s.toolCalls ?? []).filter((c) => c.name === tool);
    return { pass: calls.some((c) => c.isError === true), reason: calls.map((c) => `${c.name}: isError ${String(c.isError)}`).join('; ') || `${tool} was not called` };
  };
}

export function supportCases(fetchTarget: string): EvalCase[] {
  return [
    {
      id: 'order-status',
      input: 'Where is my order A1?',
      check: (t) => {
        t.calledTool('orders_lookup', { args: { orderId: 'A1' } });
        t.notCalledTool('refunds_issue');
        t.noToolErrors();
        t.contains('delivered');
      },
    },
    {
      id: 'refund-delivered',
      input: 'Please refund order A1.',
      check: (t) => {
        t.calledTool('refunds_issue', { args: { orderId: 'A1' } });
        t.toolOrder(['orders_lookup', 'refunds_issue']);
        t.noToolErrors();
      },
    },
    {
      id: 'refund-refused',
      input: 'Please refund order B2.',
      check: (t) => {
        t.calledTool('refunds_issue', { args: { orderId: 'B2' } });
        t.expect('the refused refund is recorded as a tool error', toolErrorRecorded('refunds_issue'));
      },
    },
    {
      // No adapter here: ctx.fetch reads the tool calls, usage and cost off the model calls.
      id: 'order-status-cost',
      target: fetchTarget,
      input: 'What is the status of order A1?',
      check: (t) => {
        t.calledTool('orders_lookup', { args: { orderId: 'A1' } });
        t.contains('delivered');
        t.maxCostUsd(0.01);
      },
    },
  ];
}
