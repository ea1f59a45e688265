/**
 * The OpenAI Agents SDK example, evaluated two ways:
 *
 *   OPENAI_API_KEY=... npx agent-evals run --config examples/frameworks/openai-agents/evals.config.ts
 *
 * `support-agent` turns the SDK's run result into an AgentRun with the adapter (tool calls, their
 * errors through the tracing processor, usage and model of every response); `support-agent-fetch`
 * uses no adapter, only `ctx.fetch('openai')` on the agent's client, for exact usage and cost.
 * It costs real tokens (cents) unless OPENAI_BASE_URL points elsewhere; the tests run it against the
 * fake OpenAI server.
 */
import { setTraceProcessors, setTracingDisabled } from '@openai/agents';
import { defineConfig } from 'agent-evals';
import { fromOpenAIAgents, openAIAgentsTracing } from 'agent-evals/openai-agents';
// The project's own openai: 7 beside @openai/agents 0.20 (agent-evals keeps its openai 6 to itself).
import OpenAI from 'openai';
import { runSupportAgent } from './agent.js';

/**
 * Registered once: it keeps each trace's tool spans, where a throwing tool's error is explicit.
 * As the only processor (`addTraceProcessor` would keep the SDK's exporter), no trace leaves the process.
 */
export const tracing = openAIAgentsTracing();
setTraceProcessors([tracing]);
// The SDK turns tracing off when NODE_ENV is `test` (as CI often sets it); untraced, the adapter refuses a run with tool calls.
setTracingDisabled(false);

export default defineConfig({
  evals: ['*.eval.yaml'],
  targets: {
    'support-agent': async (input) => fromOpenAIAgents(await runSupportAgent(input, new OpenAI())),
    'support-agent-fetch': async (input, ctx) => {
      const result = await runSupportAgent(input, new OpenAI({ fetch: ctx.fetch('openai') }));
      return String(result.finalOutput ?? '');
    },
  },
  outputDir: '.agent-evals',
});
