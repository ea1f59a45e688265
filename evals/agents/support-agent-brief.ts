import type { TargetContext } from 'agent-evals';
import { supportAgent } from './support-agent.js';

/**
 * A second variant of the example agent, for the matrix example: the same tools and rules, but
 * shorter replies (no delivery estimate, no policy quoted back).
 */
export async function supportAgentBrief(input: string, ctx: TargetContext): Promise<string> {
  const reply = await supportAgent(input, ctx);
  return reply.replace(/ It should arrive in [^.]*\./, '').replace(/ \([^)]*\)$/, '');
}
