/**
 * The LangGraph agent as two function targets:
 *
 *   OPENAI_API_KEY=... npx agent-evals run --config examples/frameworks/langchain/evals.config.ts
 *
 * `langchain-support` turns the graph's messages into an AgentRun with the adapter (tool calls,
 * errors, usage, model); `langchain-support-fetch` uses no adapter: `ctx.fetch('openai')` handed to
 * ChatOpenAI records each model call, so usage and cost are exact and the tool calls are read off the wire.
 */
import { defineConfig } from 'agent-evals';
import { fromLangChain } from 'agent-evals/langchain';
import { supportAgent } from './agent.js';

export default defineConfig({
  evals: ['*.eval.ts'],
  targets: {
    'langchain-support': async (input, ctx) => {
      const state = await supportAgent().invoke({ messages: [{ role: 'user', content: input }] }, { signal: ctx.signal });
      // `provider` prefixes each step's model for pricing; @langchain/core 1.x names it in the messages, 0.3 does not.
      return fromLangChain(state.messages, { provider: 'openai' });
    },
    'langchain-support-fetch': async (input, ctx) => {
      const state = await supportAgent({ fetch: ctx.fetch('openai') }).invoke({ messages: [{ role: 'user', content: input }] }, { signal: ctx.signal });
      return state.messages.at(-1)?.text ?? '';
    },
  },
});
