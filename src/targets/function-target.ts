import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { AgentRunSchema, type AgentRun, type Step } from '../trace/agent-run.js';
import type { TokenUsage } from '../trace/usage.js';
import { errorMessage } from '../errors.js';
import type { ChatTurn, Target, TargetSession, TrialInput } from './types.js';
import { anthropicClient, openaiClient, type AnthropicClientOptions, type OpenAIClientOptions, type UsageRecorder } from './sdk-clients.js';
import { historyBeforeFirstTurn } from './session.js';
import { withPartialRun } from './partial-run.js';

/** What a function target is handed besides its input: recording helpers and an abort signal. */
export interface TargetContext {
  readonly signal: AbortSignal;
  readonly trial: TrialInput;
  /** The conversation so far, ending with the user message to answer. */
  readonly messages: ChatTurn[];
  /** 1-based turn of the conversation this call answers (always 1 in a single-turn case). */
  readonly turn: number;
  /** Runs a tool implementation and records name, args, result, error flag and duration as a step. */
  tool<A, R>(name: string, args: A, fn: (args: A) => R | Promise<R>): Promise<R>;
  /** Adds token usage of a model call the agent made; `model` (`provider:model`) prices it. */
  usage(usage: TokenUsage & { model?: string }): void;
  /** Records a step of text the agent produced (reasoning, an intermediate message). */
  step(text: string): void;
  /**
   * A real OpenAI SDK client (key from OPENAI_API_KEY, endpoint from OPENAI_BASE_URL when set)
   * whose every call's usage is added to this trial's target usage: `const openai = await ctx.openai()`.
   */
  openai(options?: OpenAIClientOptions): Promise<OpenAI>;
  /** The same for Anthropic (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL): `const claude = await ctx.anthropic()`. */
  anthropic(options?: AnthropicClientOptions): Promise<Anthropic>;
}

export type TargetFunction = (input: string, ctx: TargetContext) => string | AgentRun | Promise<string | AgentRun>;

/** Builds the recording context for one call of the function and folds what it recorded into the returned run. */
export function createRecorder(trial: TrialInput, signal: AbortSignal, turn = 1) {
  const steps: Step[] = [];
  const pending = new Set<Promise<void>>();
  const usageRecorder: UsageRecorder = {
    record: (usage, model) => steps.push({ usage, model }),
    track(work) {
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
  };
  const ctx: TargetContext = {
    signal,
    trial,
    messages: trial.messages,
    turn,
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
    openai: (options) => openaiClient(usageRecorder, options),
    anthropic: (options) => anthropicClient(usageRecorder, options),
  };
  return {
    ctx,
    /** Resolves once the usage of every SDK response seen so far has been read. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    /** What was recorded so far, for a call that failed. */
    partial(): AgentRun {
      return { reply: '', steps: [...steps] };
    },
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

/** One call of the function: its value checked, SDK usage awaited, partial work kept on failure. */
async function callOnce(name: string, fn: TargetFunction, trial: TrialInput, signal: AbortSignal, turn: number): Promise<AgentRun> {
  const recorder = createRecorder(trial, signal, turn);
  let value: string | AgentRun;
  try {
    value = await fn(trial.input, recorder.ctx);
    await recorder.settled();
  } catch (err) {
    await recorder.settled().catch(() => {});
    throw withPartialRun(err, recorder.partial());
  }
  if (typeof value !== 'string' && (value === null || typeof value !== 'object')) {
    throw new Error(`target "${name}" returned ${value === null ? 'null' : typeof value}; expected a string or an AgentRun`);
  }
  return recorder.finish(value);
}

/**
 * A function as a target. In a multi-turn case the function is called once per user turn with
 * `ctx.messages` holding the whole conversation so far (earlier replies as assistant turns).
 */
export function functionTarget(name: string, fn: TargetFunction): Target {
  return {
    name,
    run: (trial, signal) => callOnce(name, fn, trial, signal, 1),
    async openSession(trial): Promise<TargetSession> {
      const history: ChatTurn[] = historyBeforeFirstTurn(trial);
      let turn = 0;
      return {
        async send(message, signal) {
          history.push({ role: 'user', content: message });
          turn += 1;
          const run = await callOnce(name, fn, { ...trial, input: message, messages: [...history] }, signal, turn);
          history.push({ role: 'assistant', content: run.reply });
          return run;
        },
        async close() {},
      };
    },
  };
}
