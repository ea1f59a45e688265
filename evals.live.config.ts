/**
 * Live example: a model-agent target (a real model with the example store's tools).
 *
 *   OPENAI_API_KEY=... npx agent-evals run --config evals.live.config.ts
 *   LIVE_MODEL=anthropic:claude-sonnet-5-5 ANTHROPIC_API_KEY=... npx agent-evals run --config evals.live.config.ts
 *
 * It costs real tokens (cents), so it is kept apart from the offline quick start: its suites live in
 * examples/live/, outside the default `evals/**` glob. A missing key stops it before any call (exit 2).
 */
import { defineConfig } from 'agent-evals';
import { storeTools } from './examples/live/store-tools.js';

const model = process.env.LIVE_MODEL ?? 'openai:gpt-5.4-mini';

export default defineConfig({
  evals: ['examples/live/**/*.eval.yaml'],
  targets: {
    'store-agent': {
      model,
      instructionsFile: 'examples/live/support.md',
      tools: storeTools,
      maxSteps: 8,
      // No temperature: neither default model takes one (Claude 5.x under API 2026-10-21, gpt-5.4-mini unless reasoning effort is none).
      timeoutMs: 60_000,
    },
  },
  concurrency: 4,
  outputDir: '.agent-evals/live',
});
