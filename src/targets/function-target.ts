import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { AgentRunSchema, toolCallsOf, type AgentRun, type Step } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';
import { errorMessage } from '../core/errors.js';
import type { MessageTurn } from '../core/chat-turn.js';
import { isProviderId, providerList } from '../providers/registry.js';
import type { ProviderId } from '../providers/types.js';
import type { ProxySetting } from '../providers/proxy.js';
import type { Target, TargetSession, TrialInput } from './types.js';
import { anthropicClient, networkFetch, openaiClient, recordingFetch, type AnthropicClientOptions, type OpenAIClientOptions, type CallRecorder, type ClientNetwork } from './sdk-clients.js';
import { WireToolCalls, withoutReportedCalls } from './wire-tool-calls.js';
import { historyBeforeFirstTurn, turnTrial } from './session.js';
import { keepPartialOnAbort, withPartialRun } from './partial-run.js';
import { mergeReturnedRun, type MergedRun } from './returned-usage.js';
import { returnedRun } from './returned-run.js';
import { runAttributed } from './target-faults.js';
import { standInCall } from './tool-tape-scope.js';
import { toolResultText } from './tool.js';

/** What a function target is handed besides its input: recording helpers and an abort signal. */
export interface TargetContext {
  readonly signal: AbortSignal;
  readonly trial: TrialInput;
  /** The conversation so far, ending with the user message to answer. */
  readonly messages: MessageTurn[];
  /** 1-based turn of the conversation this call answers (always 1 in a single-turn case). */
  readonly turn: number;
  /**
   * State of this trial's conversation: the same object on every turn of one trial, a fresh empty
   * one for each trial (and each repeat). Keep the framework's own message history here, tool
   * calls and results included: `ctx.messages` holds only the text of earlier turns.
   */
  readonly session: Record<string, unknown>;
  /** Runs a tool implementation and records name, args, result, error flag and duration as a step. */
  tool<A, R>(name: string, args: A, fn: (args: A) => R | Promise<R>): Promise<R>;
  /** Adds token usage of a model call the agent made; `model` (`provider:model`) prices it. */
  usage(usage: TokenUsage & { model?: string }): void;
  /** Records a step of text the agent produced (reasoning, an intermediate message). */
  step(text: string): void;
  /**
   * A real OpenAI SDK client (key from OPENAI_API_KEY, endpoint from OPENAI_BASE_URL when set)
   * whose every call's usage is added to this trial's target usage: `const openai = await ctx.openai()`.
   * Its requests go through the run's proxy (the config's `proxy`, else HTTPS_PROXY / HTTP_PROXY /
   * NO_PROXY), unless `options.fetch` gives a fetch of your own, which is used as given.
   */
  openai(options?: OpenAIClientOptions): Promise<OpenAI>;
  /** The same for Anthropic (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL): `const claude = await ctx.anthropic()`. */
  anthropic(options?: AnthropicClientOptions): Promise<Anthropic>;
  /**
   * A `fetch` that records every model call made through it (usage and model, streamed replies
   * included) as this trial's target usage, and the tool calls its responses ask for with the
   * results the next requests send back, as the trial's tool calls: hand it to a framework's own
   * client, e.g. `createOpenAI({ fetch: ctx.fetch('openai') })` or `new OpenAI({ fetch: ctx.fetch('openai') })`,
   * and cost and trajectory are exact with no adapter. The client keeps its own key and endpoint;
   * its requests go through the run's proxy, as ctx.openai()'s do.
   * Any provider id of the registry (a preset such as groq too): its wire format says how usage and
   * tool calls are read, and its id prefixes the model the call is priced under. Under `--dry-run` it
   * answers in-process with the placeholder.
   */
  fetch(provider: ProviderId): typeof globalThis.fetch;
}

export type TargetFunction = (input: string, ctx: TargetContext) => string | AgentRun | Promise<string | AgentRun>;

/** How a function target is run: `--dry-run`, and where it tells the run about usage it counted once. */
export interface FunctionTargetOptions {
  /** `--dry-run`: ctx.openai() / ctx.anthropic() answer in-process with the placeholder, zero usage. */
  dryRun?: boolean;
  /** Run warnings (once per target), e.g. returned usage that was already recorded. */
  warn?(message: string): void;
  /** Where ctx.openai() / ctx.anthropic() find their key and base URL, and ctx's clients their proxy variables (the run's; default this process's). */
  env?: NodeJS.ProcessEnv;
  /** The config's `proxy` for ctx.openai() / ctx.anthropic() / ctx.fetch(), over the environment's; unset: the environment's. */
  proxy?: ProxySetting | undefined;
}

/** Builds the recording context for one call of the function and folds what it recorded into the returned run. */
export function createRecorder(
  trial: TrialInput,
  signal: AbortSignal,
  turn = 1,
  options: { dryRun?: boolean; env?: NodeJS.ProcessEnv; proxy?: ProxySetting | undefined; session?: Record<string, unknown>; onRecord?: () => void } = {},
) {
  const recorded: Step[] = [];
  // Every step goes through here, so a watcher (an isolated target's host) hears each one.
  const steps = {
    push(step: Step): void {
      recorded.push(step);
      options.onRecord?.();
    },
  };
  const pending = new Set<Promise<void>>();
  // Model calls sent through ctx.openai() / ctx.anthropic() whose usage is not read yet.
  const inFlight = new Set<{ model: string }>();
  // Tool calls read off the responses of ctx.fetch / ctx.openai() / ctx.anthropic(), with their results.
  const wire = new WireToolCalls();
  const callRecorder: CallRecorder = {
    record({ usage, model, toolCalls }) {
      const calls = wire.add(toolCalls);
      // A response without usage (a stream without its usage chunk) still tells which tools were asked for.
      const step: Step = usage ? { usage, model } : {};
      if (calls.length > 0) step.toolCalls = calls;
      if (usage || calls.length > 0) steps.push(step);
    },
    answered: (results) => wire.answer(results),
    track(work) {
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
    begin(model) {
      const call = { model };
      inFlight.add(call);
      options.onRecord?.();
      return { done: () => inFlight.delete(call) };
    },
  };
  // The clients' requests take the providers' transport, over the run's proxy route.
  const network: ClientNetwork = { env: options.env ?? process.env, proxy: options.proxy, dryRun: options.dryRun === true };
  const ctx: TargetContext = {
    signal,
    trial,
    messages: trial.messages,
    turn,
    session: options.session ?? {},
    async tool(name, args, fn) {
      const started = performance.now();
      // The case's `toolResults`, or `--replay-tools`: a call they hold gets their result (an error is thrown), fn not run.
      const standIn = standInCall(name, args);
      if (standIn) {
        const injected = standIn.injected ? { injected: true } : {};
        steps.push({ toolCalls: [{ name, args, result: standIn.result, isError: standIn.isError, durationMs: performance.now() - started, ...injected }] });
        if (standIn.isError) throw new Error(toolResultText(standIn.result));
        return standIn.result as Awaited<ReturnType<typeof fn>>;
      }
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
    openai: (options) => openaiClient(callRecorder, options, network),
    anthropic: (options) => anthropicClient(callRecorder, options, network),
    fetch: (provider) => {
      // A JS caller's typo would otherwise surface only as usage never counted.
      if (!isProviderId(provider)) throw new TypeError(`ctx.fetch: unknown provider ${JSON.stringify(provider)} (one of: ${providerList()})`);
      return recordingFetch(provider, callRecorder, networkFetch(provider, network));
    },
  };
  return {
    ctx,
    /** Resolves once the usage of every SDK response seen so far has been read. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    /** What was recorded so far, for a call that failed; calls still unanswered count with unknown usage. */
    partial(): AgentRun {
      return { reply: '', steps: [...withoutReportedCalls(recorded, [], wire), ...[...inFlight].map((c): Step => ({ model: c.model, usageUnknown: true }))] };
    },
    finish(value: string | AgentRun): MergedRun {
      if (typeof value === 'string') return { run: replyAlone({ reply: value, steps: withoutReportedCalls(recorded, [], wire) }, false), countedOnce: 0, addedBoth: false };
      const returned = AgentRunSchema.parse(value);
      const merged = mergeReturnedRun(withoutReportedCalls(recorded, toolCallsOf(returned), wire), returned);
      return { ...merged, run: replyAlone(merged.run, returned.steps !== undefined) };
    },
  };
}

/**
 * A run with nothing recorded and no step list returned has none: an empty list would say the
 * target recorded that it did nothing but reply (a trajectory, see recordedTrajectory).
 */
function replyAlone(run: AgentRun, returnedSteps: boolean): AgentRun {
  if (returnedSteps || (run.steps?.length ?? 0) > 0) return run;
  const { steps: _none, ...rest } = run;
  return rest;
}

/** One call of the function: its value checked, SDK usage awaited, partial work kept on failure or timeout. */
export interface CallOptions {
  dryRun: boolean;
  env: NodeJS.ProcessEnv | undefined;
  /** The config's `proxy` for the ctx clients; unset: the environment's. */
  proxy?: ProxySetting | undefined;
  warnOnce(kind: 'counted-once' | 'added-both', message: string): void;
  /** Hears what the call has recorded so far, after each step (an isolated target keeps it for a timeout). */
  progress?(partial: AgentRun): void;
}

export async function callOnce(name: string, fn: TargetFunction, trial: TrialInput, signal: AbortSignal, turn: number, session: Record<string, unknown>, options: CallOptions): Promise<AgentRun> {
  const onRecord = options.progress ? () => options.progress!(recorder.partial()) : undefined;
  const recorder = createRecorder(trial, signal, turn, { dryRun: options.dryRun, proxy: options.proxy, session, ...(options.env ? { env: options.env } : {}), ...(onRecord ? { onRecord } : {}) });
  // A timeout settles the trial without waiting for the function: what it did by then is kept.
  const release = keepPartialOnAbort(signal, () => recorder.partial());
  let value: string | AgentRun;
  try {
    value = await runAttributed(name, () => fn(trial.input, recorder.ctx), signal);
    await recorder.settled();
  } catch (err) {
    await recorder.settled().catch(() => {});
    throw withPartialRun(err, recorder.partial());
  } finally {
    release();
  }
  if (typeof value !== 'string' && (value === null || typeof value !== 'object')) {
    throw new Error(`target "${name}" returned ${value === null ? 'null' : typeof value}; expected a string or an AgentRun`);
  }
  const merged = recorder.finish(typeof value === 'string' ? value : returnedRun(name, value));
  if (merged.countedOnce > 0) {
    options.warnOnce(
      'counted-once',
      `target "${name}" returned usage that ctx.openai() / ctx.anthropic() / ctx.usage() already recorded (${merged.countedOnce} call${merged.countedOnce === 1 ? '' : 's'} with the same tokens): each call is counted once`,
    );
  }
  if (merged.addedBoth) {
    options.warnOnce(
      'added-both',
      `target "${name}" returned usage besides what ctx.openai() / ctx.anthropic() / ctx.usage() recorded, for calls with other token counts: both are counted (return the run without usage if they are the same calls)`,
    );
  }
  return merged.run;
}

/** Each kind of warning once per target, not once per trial (an isolated target's workers share one). */
export function warnOncePerKind(warn: ((message: string) => void) | undefined): CallOptions['warnOnce'] {
  const warned = new Set<string>();
  return (kind, message) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn?.(message);
  };
}

/**
 * A function as a target. In a multi-turn case the function is called once per user turn with
 * `ctx.messages` holding the whole conversation so far (earlier replies as assistant turns) and
 * `ctx.session` the state it kept on earlier turns.
 */
export function functionTarget(name: string, fn: TargetFunction, options: FunctionTargetOptions = {}): Target {
  const once: CallOptions = { dryRun: options.dryRun === true, env: options.env, proxy: options.proxy, warnOnce: warnOncePerKind(options.warn) };
  return {
    name,
    run: (trial, signal) => callOnce(name, fn, trial, signal, 1, {}, once),
    async openSession(trial): Promise<TargetSession> {
      const history: MessageTurn[] = historyBeforeFirstTurn(trial);
      // One conversation, one ctx.session: a trial (each repeat opens its own) never sees another's.
      const session: Record<string, unknown> = {};
      let turn = 0;
      return {
        async send(message, signal, parts) {
          turn += 1;
          const run = await callOnce(name, fn, turnTrial(trial, history, message, parts), signal, turn, session, once);
          history.push({ role: 'assistant', content: run.reply });
          return run;
        },
        async close() {},
      };
    },
  };
}
