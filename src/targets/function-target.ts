import { AgentRunSchema, type AgentRun, type Step } from '../trace/agent-run.js';
import type { TokenUsage } from '../trace/usage.js';
import { errorMessage } from '../errors.js';
import type { ChatTurn, Target, TrialInput } from './types.js';

/** What a function target is handed besides its input: recording helpers and an abort signal. */
export interface TargetContext {
  readonly signal: AbortSignal;
  readonly trial: TrialInput;
  /** The conversation so far, ending with the user message to answer. */
  readonly messages: ChatTurn[];
  /** Runs a tool implementation and records name, args, result, error flag and duration as a step. */
  tool<A, R>(name: string, args: A, fn: (args: A) => R | Promise<R>): Promise<R>;
  /** Adds token usage of a model call the agent made; `model` (`provider:model`) prices it. */
  usage(usage: TokenUsage & { model?: string }): void;
  /** Records a step of text the agent produced (reasoning, an intermediate message). */
  step(text: string): void;
}

export type TargetFunction = (input: string, ctx: TargetContext) => string | AgentRun | Promise<string | AgentRun>;

/** Builds the recording context for one trial and folds what it recorded into the returned run. */
export function createRecorder(trial: TrialInput, signal: AbortSignal) {
  const steps: Step[] = [];
  const ctx: TargetContext = {
    signal,
    trial,
    messages: trial.messages,
    async tool(name, args, fn) {
      const started = performance.now();
      try {
        const result = await fn(args);
        steps.push({ toolCalls: [{ name, args, result, isError: false, durationMs: performance.now() - started }] });
        return result;
      } catch (err) {
        steps.push({ toolCalls: [{ name, args, result: errorMessage(err), isError: true, durationMs: performance.now() - started }] });
        throw err;
      }
    },
    usage({ model, ...usage }) {
      // Usage is recorded on a step of its own so each model call keeps its price.
      steps.push({ usage, ...(model ? { model } : {}) });
    },
    step(text) {
      steps.push({ text });
    },
  };
  return {
    ctx,
    finish(value: string | AgentRun): AgentRun {
      if (typeof value === 'string') return { reply: value, steps };
      const { usage, ...run } = AgentRunSchema.parse(value);
      const all = [...steps, ...(run.steps ?? [])];
      // Step usage, when there is any, is the run's usage: keep a run-level total as a step of its own.
      if (usage && all.some((s) => s.usage)) all.push({ usage, ...(run.model ? { model: run.model } : {}) });
      else if (usage) return { ...run, usage, steps: all };
      return { ...run, steps: all };
    },
  };
}

export function functionTarget(name: string, fn: TargetFunction): Target {
  return {
    name,
    async run(trial, signal) {
      const recorder = createRecorder(trial, signal);
      const value = await fn(trial.input, recorder.ctx);
      if (typeof value !== 'string' && (value === null || typeof value !== 'object')) {
        throw new Error(`target "${name}" returned ${value === null ? 'null' : typeof value}; expected a string or an AgentRun`);
      }
      return recorder.finish(value);
    },
  };
}
