/**
 * The AI SDK example's targets: the same agent evaluated through the adapter (tool calls, tool
 * errors, usage and model read off the result), through `ctx.fetch` alone (usage and model read
 * off the wire, only the reply returned), and through both (each call counted once).
 * With OPENAI_API_KEY set: `npx agent-evals run --config examples/frameworks/ai-sdk/evals.config.ts`.
 */
import { defineConfig } from 'agent-evals';
import { fromAISDK } from 'agent-evals/ai-sdk';
import { INSTRUCTIONS, supportAgent, supportAgentStream } from './agent.js';

export default defineConfig({
  evals: ['*.eval.ts'],
  targets: {
    'ai-sdk': async (input, ctx) => fromAISDK(await supportAgent(input, { signal: ctx.signal }), { instructions: INSTRUCTIONS }),
    'ai-sdk-stream': (input, ctx) => fromAISDK(supportAgentStream(input, { signal: ctx.signal }), { instructions: INSTRUCTIONS }),
    'ai-sdk-fetch': async (input, ctx) => (await supportAgent(input, { fetch: ctx.fetch('openai'), signal: ctx.signal })).text,
    'ai-sdk-fetch-stream': async (input, ctx) => await supportAgentStream(input, { fetch: ctx.fetch('openai'), signal: ctx.signal }).text,
    'ai-sdk-both': async (input, ctx) => fromAISDK(await supportAgent(input, { fetch: ctx.fetch('openai'), signal: ctx.signal }), { instructions: INSTRUCTIONS }),
  },
});
