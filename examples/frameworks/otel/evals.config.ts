import { defineConfig } from 'agent-evals';
import { supportAgent } from './agent.js';

export default defineConfig({
  evals: ['*.eval.yaml'],
  targets: {
    // The reply is all the function returns: tool calls, usage and model come from the spans.
    'ai-sdk-otel': { function: (input, ctx) => supportAgent(input, ctx.signal), otel: true },
  },
});
