import { defineConfig } from 'agent-evals';
import { supportAgent } from './evals/agents/support-agent.js';

export default defineConfig({
  evals: ['evals/**/*.eval.{yaml,yml,ts}'],
  targets: {
    'support-agent': supportAgent,
    'order-status-cli': { command: ['node', 'evals/agents/order-status.mjs'] },
  },
  concurrency: 8,
});
