/** Shared pieces of the target tests: store tools built with tool(), trial inputs, fake providers. */
import { z } from 'zod';
import { tool } from '../../src/targets/tool.js';
import type { TrialInput } from '../../src/targets/types.js';
import { createStore, POLICIES } from '../../evals/agents/store.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { Script } from '../support/fake-server.js';

export const OPENAI_KEY = 'sk-test-openai-secret-0123456789';
export const ANTHROPIC_KEY = 'sk-ant-test-secret-0123456789';

/** One store per trial, shared by that trial's tools (ToolContext.state). */
const storeOf = (ctx: { state<T>(key: string, init: () => T): T }) => ctx.state('store', createStore);

export const ordersLookup = tool({
  name: 'orders_lookup',
  description: 'Look up an order by id',
  parameters: z.object({ orderId: z.string().regex(/^[A-Z]\d{4}$/) }),
  execute: ({ orderId }, ctx) => storeOf(ctx).lookup(orderId),
});

export const policyLookup = tool({
  name: 'policy_lookup',
  description: 'Read a store policy',
  parameters: z.object({ topic: z.enum(['refunds', 'shipping']) }),
  execute: ({ topic }) => POLICIES[topic]!,
});

export const refundsIssue = tool({
  name: 'refunds_issue',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }, ctx) => storeOf(ctx).refund(orderId),
});

export const storeTools = [ordersLookup, policyLookup, refundsIssue];

/**
 * The store tools with their activity logged, for a test that two calls of one step overlap: the
 * policy lookup ends only once the refund has ended, an event rather than a clock, so it is slower
 * than the refund however busy the machine. Run one after the other, the lookup would wait for a
 * refund that has not started: it gives up after a backstop and logs that, which the test sees.
 */
export function overlappingStoreTools(): { tools: typeof storeTools; activity: string[] } {
  const activity: string[] = [];
  let refundEnded: () => void = () => {};
  const refunded = new Promise<void>((resolve) => (refundEnded = resolve));
  const policy = tool({
    name: 'policy_lookup',
    description: 'Read a store policy',
    parameters: z.object({ topic: z.enum(['refunds', 'shipping']) }),
    async execute({ topic }) {
      activity.push('policy:start');
      let backstop: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<string>((resolve) => (backstop = setTimeout(() => resolve('policy:gave-up-waiting'), 5_000)));
      const how = await Promise.race([refunded.then(() => 'policy:end'), gaveUp]);
      clearTimeout(backstop);
      activity.push(how);
      return POLICIES[topic]!;
    },
  });
  const refund = tool({
    name: 'refunds_issue',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string() }),
    async execute({ orderId }, ctx) {
      activity.push('refund:start');
      const r = storeOf(ctx).refund(orderId);
      activity.push('refund:end');
      refundEnded();
      return r;
    },
  });
  return { tools: [ordersLookup, policy, refund], activity };
}

export function trialInput(input: string, extra: Partial<TrialInput> = {}): TrialInput {
  return { suite: 'store', id: 'case', trial: 0, input, messages: [{ role: 'user', content: input }], ...extra };
}

export type ProviderName = 'openai' | 'anthropic';

/** A fake server of either wire format, with its SDK base URL and the env a provider needs. */
export async function startFake(provider: ProviderName, script: Script, apiKey?: string) {
  const fake = provider === 'openai' ? await startFakeOpenAI({ script, ...(apiKey ? { apiKey } : {}) }) : await startFakeAnthropic({ script, ...(apiKey ? { apiKey } : {}) });
  const env = provider === 'openai' ? { OPENAI_API_KEY: OPENAI_KEY } : { ANTHROPIC_API_KEY: ANTHROPIC_KEY };
  return { fake, env };
}

export const never = new AbortController().signal;
