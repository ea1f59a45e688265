import { defineConfig } from 'agent-evals';
import { supportAgent } from './evals/agents/support-agent.js';
import { supportAgentBrief } from './evals/agents/support-agent-brief.js';

export default defineConfig({
  evals: ['evals/**/*.eval.{yaml,yml,ts}'],
  targets: {
    'support-agent': supportAgent,
    // A second variant of the example agent, compared with the first in evals/support/matrix.eval.yaml.
    'support-agent-brief': supportAgentBrief,
    'order-status-cli': { command: ['node', 'evals/agents/order-status.mjs'] },
  },
  // Offline judge: answers come from evals/judge-fixtures.yaml, else a fixed passing score. To judge
  // with a real model, set e.g. judge: 'openai:gpt-5.4-mini' (or run with --judge provider:model).
  judge: { provider: 'fake', fixtures: 'evals/judge-fixtures.yaml' },
  // Offline answers for `agent-evals calibrate evals/calibration/labels.jsonl --judge calibration-fake`.
  judges: { 'calibration-fake': { provider: 'fake', fixtures: 'evals/calibration/fake-judge.yaml' } },
  concurrency: 8,
});
