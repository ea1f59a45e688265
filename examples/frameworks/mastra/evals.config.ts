/**
 * The Mastra agent as two function targets:
 *
 *   OPENAI_API_KEY=... npx agent-evals run --config examples/frameworks/mastra/evals.config.ts
 *
 * `mastra-support` turns the `generate()` result into an AgentRun with the adapter (tool calls,
 * errors, usage, model); `mastra-support-fetch` uses no adapter: `ctx.fetch('openai')` handed to
 * the provider records each model call, so usage and cost are exact and the tool calls are read off the wire.
 */
import { defineConfig } from 'agent-evals';
import { fromMastra } from 'agent-evals/mastra';
import { supportAgent } from './agent.js';

export default defineConfig({
  evals: ['*.eval.ts'],
  targets: {
    'mastra-support': async (input, ctx) => {
      const result = await supportAgent().generate(input, { maxSteps: 5, abortSignal: ctx.signal });
      return fromMastra(result, { provider: 'openai' });
    },
    'mastra-support-fetch': async (input, ctx) => {
      const result = await supportAgent({ fetch: ctx.fetch('openai') }).generate(input, { maxSteps: 5, abortSignal: ctx.signal });
      return result.text;
    },
  },
});
