import type { AgentRun, TargetContext } from 'agent-evals';
import { supportAgent } from './support-agent.js';

/**
 * A second variant of the example agent, for the matrix example: the same tools and rules, but
 * shorter replies (no delivery estimate, no policy quoted back).
 */
export async function supportAgentBrief(input: string, ctx: TargetContext): Promise<string | AgentRun> {
  const answer = await supportAgent(input, ctx);
  const brief = (reply: string) => reply.replace(/ It should arrive in [^.]*\./, '').replace(/ \([^)]*\)$/, '');
  return typeof answer === 'string' ? brief(answer) : { ...answer, reply: brief(answer.reply) };
}
