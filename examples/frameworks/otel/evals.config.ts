import { defineConfig } from 'agent-evals';
import { supportAgent } from './agent.js';

export default defineConfig({
  evals: ['*.eval.yaml'],
  targets: {
    // The reply is all the function returns: tool calls, usage and model come from the spans
    // (AI SDK 7: with @ai-sdk/otel installed, agent-evals registers its integration for the run).
    'ai-sdk-otel': { function: (input, ctx) => supportAgent(input, ctx.signal), otel: true },
  },
});
