import { createProvider } from '../providers/create.js';
import { ProviderLimiters } from '../providers/adaptive-limit.js';
import { priceUsage, type PriceTable } from '../providers/pricing.js';
import type { ChatMessage, Provider, ProviderTool, ProviderToolCall } from '../providers/types.js';
import { parseModelSpec, type ModelSpec, type ModelSpecInput } from '../providers/model-spec.js';
import { createToolState, executeTool, providerToolOf, toolResultText, type Tool, type ToolContext } from '../targets/tool.js';
import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import { addUsage, emptyUsage, usageFromTokens, type TokenUsage, type Usage } from '../core/usage.js';
import { withTimeout } from '../core/timeout.js';
import type { Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';
import { judgeSections } from './prompt.js';
import { projectTrace } from './trace-render.js';
import { JudgeProtocolError } from '../core/errors.js';
import { answerStop } from './answer-stopped.js';
import { judgeCalledWith } from './judge-fingerprint.js';
import { agentJudgeSystem, readSubmission, SKIPPED_AFTER_SUBMIT, SUBMIT_TOOL, SUBMIT_TOOL_SCHEMA, submitSections, type Submission } from './agent-judge-protocol.js';

/** Limits the user sets; the judge adds none of its own. */
export interface JudgeGuards {
  maxSteps?: number;
  /** Input + output tokens across the judgment. */
  maxTokens?: number;
  timeoutMs?: number;
  /** Finish reasons that end the judgment as a failure (e.g. `length`, `refusal`). */
  failOnFinishReasons?: string[];
}

export interface AgentJudgeConfig {
  model: ModelSpecInput;
  /** The judge's persona, replacing the built-in first line of its system prompt (the rules stay); recorded in the results. */
  system?: string;
  tools?: Tool[];
  guards?: JudgeGuards;
  options?: { temperature?: number; maxTokensPerCall?: number; pricing?: PriceTable; env?: NodeJS.ProcessEnv };
}

export interface GuardProfile {
  configured: boolean;
  active: Array<keyof JudgeGuards>;
}

export interface JudgeEvent {
  type: 'warning';
  message: string;
}

/**
 * Prices one call of `model` for the run: the config's `pricing` (with the judge's own `options.pricing`
 * entries, `own`, over it) and the run's once-per-model warning for an unpriced model.
 */
export type JudgePricer = (tokens: TokenUsage, model: string, own: PriceTable | undefined) => Usage;

/** What a run injects into an agent judge it uses: the same settings its other judges get. */
export interface AgentJudgeRunSettings {
  price: JudgePricer;
  /** The run's provider limiters: the judge's provider, built at grade time, is capped like the others. */
  limiters: ProviderLimiters;
  /** The run's environment, for a judge whose `options.env` gives none. */
  env: NodeJS.ProcessEnv;
}

export interface AgentJudge extends Judge {
  readonly kind: 'agent';
  /**
   * The spec its calls go to, endpoint and key variable included (what `doctor` checks): a plain
   * config's from the start, a factory's from its latest judgment, undefined before that.
   */
  readonly modelSpec: ModelSpec | undefined;
  /**
   * Where its calls read their key when its `options.env` gives one (else the run's environment); known
   * as `modelSpec` is. A method, not a property: a judge object serialized (a reference's key) never carries its secrets.
   */
  ownEnv(): NodeJS.ProcessEnv | undefined;
  /** The function tools its requests offer (its own, then submit_judgment), known as `modelSpec` is: what `doctor --live` offers its model. */
  offeredTools(): ProviderTool[];
  /**
   * The run injects its settings here; until then the judge prices with its own `options.pricing`
   * only, reads this process's environment and has limiters of its own.
   */
  useRunSettings(settings: AgentJudgeRunSettings): void;
  /** For the latest judgment: whether guards were declared and which are active. */
  guardProfile(): GuardProfile;
  /** Warnings this judge instance raised (at most one about missing guards). */
  readonly events: readonly JudgeEvent[];
  onEvent(listener: (event: JudgeEvent) => void): void;
}

/** Provider and model a factory agent judge reports before its first judgment. */
export const AGENT_MODEL_UNKNOWN = 'agent';

/**
 * The agent-loop judge: a bounded tool loop on its own model that must end by calling
 * `submit_judgment`. The factory is called once per judgment, and only then (never when the judge
 * is built: a factory may open connections or read state), so each judgment gets fresh tools,
 * state, step list and submission slot — nothing crosses between two judgments. Until its first
 * judgment a factory judge reports the provider and model `agent`; afterwards those of its latest.
 */
export function agentJudge(factory: AgentJudgeConfig | (() => AgentJudgeConfig)): AgentJudge {
  const make = typeof factory === 'function' ? factory : () => factory;
  const events: JudgeEvent[] = [];
  const listeners: Array<(e: JudgeEvent) => void> = [];
  let profile: GuardProfile = profileOf(typeof factory === 'function' ? undefined : factory.guards);
  // A plain config names its model without a call; a factory's model is known once it ran.
  let spec: ModelSpec | undefined = typeof factory === 'function' ? undefined : parseModelSpec(factory.model);
  let latest: { id: string; model: string } | undefined = spec && { id: spec.provider, model: spec.model };
  let ownEnv: NodeJS.ProcessEnv | undefined = typeof factory === 'function' ? undefined : factory.options?.env;
  let system: string | undefined = typeof factory === 'function' ? undefined : factory.system;
  let ownTools: readonly Tool[] = typeof factory === 'function' ? [] : (factory.tools ?? []);
  // What its latest (or, for a plain config, its only) configuration calls the model with, and its tools.
  let setup: Pick<AgentJudge, 'calledWith' | 'tools'> = typeof factory === 'function' ? {} : setupOf(factory);
  const providers = new Map<string, Provider>();
  let run: AgentJudgeRunSettings = {
    price: (tokens, model, own) => usageFromTokens(tokens, priceUsage(model, tokens, own)),
    limiters: new ProviderLimiters(),
    env: process.env,
  };
  const providerFor = (cfg: AgentJudgeConfig): Provider => {
    const key = JSON.stringify(cfg.model);
    let p = providers.get(key);
    if (!p) providers.set(key, (p = createProvider(cfg.model, cfg.options?.env ?? run.env, { limiters: run.limiters })));
    return p;
  };
  const price: JudgePricer = (tokens, model, own) => run.price(tokens, model, own);

  // The missing-guards warning is raised once per judge instance.
  let warnedNoGuards = false;
  const emit = (e: JudgeEvent) => {
    events.push(e);
    for (const l of listeners) l(e);
  };

  return {
    kind: 'agent',
    get provider() {
      return latest?.id ?? AGENT_MODEL_UNKNOWN;
    },
    get model() {
      return latest?.model ?? AGENT_MODEL_UNKNOWN;
    },
    get modelSpec() {
      return spec;
    },
    ownEnv: () => ownEnv,
    offeredTools: () => offeredTools(ownTools),
    get system() {
      return system;
    },
    get calledWith() {
      return setup.calledWith;
    },
    get tools() {
      return setup.tools;
    },
    events,
    onEvent(listener) {
      listeners.push(listener);
      for (const e of events) listener(e);
    },
    guardProfile: () => profile,
    useRunSettings(settings) {
      run = settings;
      // Providers hold the limiters of the run that built them: a new run builds its own.
      providers.clear();
    },
    async judge(req: JudgeRequest): Promise<JudgeScore> {
      const cfg = make();
      profile = profileOf(cfg.guards);
      const provider = providerFor(cfg);
      latest = { id: provider.id, model: provider.model };
      spec = parseModelSpec(cfg.model);
      ownEnv = cfg.options?.env;
      system = cfg.system;
      ownTools = cfg.tools ?? [];
      setup = setupOf(cfg);
      if (!profile.configured && !warnedNoGuards) {
        warnedNoGuards = true;
        emit({
          type: 'warning',
          message: `agent judge ${provider.spec} runs with no guards: a judge that never submits runs until the model stops. Add guards: { maxSteps, maxTokens, timeoutMs } to agentJudge().`,
        });
      }
      const progress: Progress = { usage: emptyUsage(), steps: [] };
      const ms = cfg.guards?.timeoutMs;
      // The run's stop signal (Ctrl-C after the grace period) ends the loop too.
      const outer = req.signal ?? new AbortController().signal;
      if (!ms) return runLoop(provider, cfg, req, outer, progress, price);
      let loopSignal: AbortSignal | undefined;
      const loop = (signal: AbortSignal) => ((loopSignal = signal), runLoop(provider, cfg, req, signal, progress, price));
      return withTimeout(loop, ms, outer).catch((err: unknown) => {
        // The timeout guard is a guard like maxSteps: a protocol failure, with what was spent so far.
        if (loopSignal?.aborted && loopSignal.reason === err) {
          throw new JudgeProtocolError(`judge stopped by timeoutMs (${ms}) before calling ${SUBMIT_TOOL}`, progress.usage, judgeRun(progress.steps, provider, 'protocol_error', req));
        }
        throw err;
      });
    },
  };
}

/** The tools each of its requests offers: its own, then the one it submits with. */
function offeredTools(tools: readonly Tool[]): ProviderTool[] {
  return [...tools.map(providerToolOf), { name: SUBMIT_TOOL, description: 'Submit the final judgment. Call exactly once.', parameters: SUBMIT_TOOL_SCHEMA }];
}

/** Its calls' settings as an inference judge's are recorded (the caller's temperature, then the spec's, else 0), and its tools' names. */
function setupOf(cfg: AgentJudgeConfig): Pick<AgentJudge, 'calledWith' | 'tools'> {
  const temperature = cfg.options?.temperature ?? (typeof cfg.model === 'object' ? cfg.model.temperature : undefined) ?? 0;
  const calledWith = { ...judgeCalledWith(cfg.model, temperature), ...(cfg.options?.maxTokensPerCall ? { maxTokens: cfg.options.maxTokensPerCall } : {}) };
  return { calledWith, tools: (cfg.tools ?? []).map((t) => t.name) };
}

function profileOf(guards: JudgeGuards | undefined): GuardProfile {
  const active = (['maxSteps', 'maxTokens', 'timeoutMs', 'failOnFinishReasons'] as const).filter((k) => {
    const v = guards?.[k];
    return Array.isArray(v) ? v.length > 0 : v !== undefined;
  });
  return { configured: active.length > 0, active: [...active] };
}

/** What a judgment has spent so far, readable when a timeout settles it from outside. */
interface Progress {
  usage: Usage;
  steps: Step[];
}

async function runLoop(provider: Provider, cfg: AgentJudgeConfig, req: JudgeRequest, signal: AbortSignal, progress: Progress, price: JudgePricer): Promise<JudgeScore> {
  const tools = cfg.tools ?? [];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const guards = cfg.guards ?? {};
  const { stable, varying, attachments } = judgeSections(req);
  const sections = [...stable, ...varying, ...submitSections(req.criterion)];
  // The case's images and files go with the first message, in the provider's format, as for the built-in judge.
  const messages: ChatMessage[] = [{ role: 'user', content: sections.join('\n\n'), ...(attachments ? { attachments } : {}) }];
  const steps = progress.steps;
  let usage: Usage = progress.usage;
  const toolCtx: ToolContext = {
    signal,
    trial: { suite: req.subject?.case ?? '', id: req.subject?.assertion ?? '', trial: 0, input: req.input, messages: [] },
    state: createToolState(),
  };
  const fail = (message: string): never => {
    throw new JudgeProtocolError(message, usage, judgeRun(steps, provider, 'protocol_error', req));
  };

  for (let step = 0; ; step++) {
    if (guards.maxSteps !== undefined && step >= guards.maxSteps) fail(`judge stopped by maxSteps (${guards.maxSteps}) before calling ${SUBMIT_TOOL}`);
    if (guards.maxTokens !== undefined && usage.inputTokens + usage.outputTokens >= guards.maxTokens) fail(`judge stopped by maxTokens (${guards.maxTokens}) before calling ${SUBMIT_TOOL}`);
    const res = await provider.complete({
      system: agentJudgeSystem(cfg.system),
      messages,
      tools: offeredTools(tools),
      toolChoice: 'auto',
      // The judge's default is 0; the caller's options, then the model spec's own temperature, win.
      temperature: cfg.options?.temperature ?? (typeof cfg.model === 'object' ? cfg.model.temperature : undefined) ?? 0,
      ...(cfg.options?.maxTokensPerCall ? { maxTokens: cfg.options.maxTokensPerCall } : {}),
      signal,
    });
    usage = progress.usage = addUsage(usage, price(res.usage, provider.spec, cfg.options?.pricing));
    const calls: ToolCall[] = [];
    steps.push({ ...(res.text ? { text: res.text } : {}), toolCalls: calls, usage: res.usage, model: provider.spec });
    if (guards.failOnFinishReasons?.includes(res.finishReason)) fail(`judge stopped: finish reason "${res.finishReason}"`);
    // A cut reply may hold half-written tool calls (never run), and a refusal submits nothing: say which.
    const stopped = answerStop(provider.spec, res, cfg.options?.maxTokensPerCall);
    if (stopped) fail(stopped.message);
    if (res.toolCalls.length === 0) fail(`the judge answered in plain text without calling ${SUBMIT_TOOL}`);

    // A thinking model's turn goes back as it came (its thinking blocks), or the provider refuses the next call.
    messages.push({ role: 'assistant', content: res.text, toolCalls: res.toolCalls, ...(res.providerBlocks ? { providerBlocks: res.providerBlocks } : {}) });
    let submission: Submission | undefined;
    for (const call of res.toolCalls) {
      const outcome = await handleCall(call, submission, byName, toolCtx, fail);
      if (outcome.submission) submission = outcome.submission;
      calls.push({ name: call.name, args: call.args, result: outcome.result, isError: outcome.isError, durationMs: outcome.durationMs });
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: toolResultText(outcome.result), isError: outcome.isError });
    }
    if (submission) {
      const c = req.criterion;
      const choice = c.kind === 'pairwise' ? (submission.score > 0.5 ? 'A' : submission.score < 0.5 ? 'B' : 'tie') : undefined;
      return {
        score: submission.score,
        reason: submission.reason,
        evidence: submission.evidence,
        ...(choice ? { choice } : {}),
        usage,
        run: judgeRun(steps, provider, 'submitted', req, submission.reason),
      };
    }
  }
}

async function handleCall(
  call: ProviderToolCall,
  submitted: Submission | undefined,
  tools: Map<string, Tool>,
  ctx: ToolContext,
  fail: (message: string) => never,
): Promise<{ result: unknown; isError: boolean; durationMs: number; submission?: Submission }> {
  if (call.name === SUBMIT_TOOL) {
    if (submitted) fail(`${SUBMIT_TOOL} was called a second time; a judgment is submitted exactly once`);
    const read = readSubmission(call.args);
    if (typeof read === 'string') fail(read);
    return { result: { accepted: true }, isError: false, durationMs: 0, submission: read };
  }
  // Calls ordered after the submission in the same batch never run: the judgment stands.
  if (submitted) return { result: SKIPPED_AFTER_SUBMIT, isError: false, durationMs: 0 };
  const t = tools.get(call.name);
  if (!t) return { result: `unknown tool ${call.name}`, isError: true, durationMs: 0 };
  const started = performance.now();
  const out = await executeTool(t, call.args, ctx);
  return { ...out, durationMs: performance.now() - started };
}

/** The judge's own run, its tool data projected under the same trace policy as the target's. */
function judgeRun(steps: Step[], provider: Provider, stopReason: string, req: JudgeRequest, reply = ''): AgentRun {
  const run: AgentRun = { reply, steps, model: provider.spec, stopReason };
  if (req.tracePolicy === 'full') return run;
  const projected = projectTrace(run, req.tracePolicy) as { steps: Step[] };
  // The projection conceals tool data only: each step keeps the model that answered it.
  return { ...run, steps: projected.steps.map(({ step: _n, ...s }: Step & { step?: number }, i) => ({ ...s, model: steps[i]!.model })) };
}
