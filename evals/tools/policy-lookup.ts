/**
 * Evidence tool for an agent-loop judge: looks up the store policy the example support agent is
 * bound by, so a judge can check a reply against the documented rule instead of its own idea of
 * it. Read-only; the result carries a source id (`policy:refunds`) a judgment can cite as evidence.
 */
import { z } from 'zod';
import { tool } from 'agent-evals';
import { POLICIES } from '../agents/store.js';

export const POLICY_TOPICS = Object.keys(POLICIES) as [string, ...string[]];

export interface PolicyEvidence {
  /** Cite this in `evidence`: `policy:<topic>`. */
  source: string;
  topic: string;
  text: string;
}

/** The policy text for a topic; throws (an error result to the judge) naming the known topics. */
export function lookupPolicy(topic: string): PolicyEvidence {
  const key = topic.trim().toLowerCase();
  const text = Object.hasOwn(POLICIES, key) ? POLICIES[key] : undefined;
  if (text === undefined) throw new Error(`no policy on "${topic}"; known topics: ${POLICY_TOPICS.join(', ')}`);
  return { source: `policy:${key}`, topic: key, text };
}

export const policyLookup = tool({
  name: 'policy_lookup',
  description: `Returns the store's written policy on a topic (${POLICY_TOPICS.join(', ')}) and its source id, to check a reply against the documented rule.`,
  parameters: z.object({
    topic: z.enum(POLICY_TOPICS).describe('The policy topic.'),
  }),
  execute: ({ topic }) => lookupPolicy(topic),
});
