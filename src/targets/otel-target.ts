/**
 * `{ function: agent, otel: true }`: each call of the function runs under a root span of its own
 * trace, and the run is built from the GenAI spans the agent emits under it. Loaded (with
 * OpenTelemetry) only when a target asks for it.
 */
import { context, SpanStatusCode, trace, type ProxyTracerProvider, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { AgentRun, Step } from '../core/agent-run.js';
import { AgentEvalsError, UserError, withSpent, errorMessage } from '../core/errors.js';
import { isModelCall, stepsFromSpans, type SpanRecord } from '../adapters/otel-spans.js';
import { aiSDKTelemetry, type AISDKTelemetry } from './ai-sdk-telemetry.js';
import { functionTarget, type FunctionTargetOptions, type TargetFunction } from './function-target.js';
import { withPartialRun } from './partial-run.js';
import { mergeReturnedRun } from './returned-usage.js';
import { returnedRun } from './returned-run.js';
import { TRIAL_ATTRIBUTE, trialSpans } from './span-collector.js';
import type { Target } from './types.js';

const provider = new BasicTracerProvider({ spanProcessors: [trialSpans] });

/**
 * Global OpenTelemetry state is set only while a trial of an otel target runs, and only where the
 * process has none: a tracer provider or context manager already registered (the user's) is kept
 * and used. What we registered is removed when the last such trial ends.
 */
let leases = 0;
let owned = { trace: false, context: false };

function acquire(): () => void {
  if (leases++ === 0) {
    owned = {
      context: context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()),
      trace: trace.setGlobalTracerProvider(provider),
    };
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--leases > 0) return;
    // Unless someone reset the globals meanwhile (what is registered now is not ours to remove).
    const stillOurs = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() === provider;
    if (owned.trace && stillOurs) trace.disable();
    if (owned.context && (stillOurs || !owned.trace)) context.disable();
    owned = { trace: false, context: false };
  };
}

const FOREIGN_PROVIDER =
  'otel: true: another OpenTelemetry tracer provider is registered in this process and the trial spans do not reach agent-evals; add `otelSpanProcessor()` from agent-evals to its span processors, or do not register one while evals run';

/** The trial's root span, in a trace of its own; throws when our collector cannot see it. */
function startRoot(label: string): Span {
  const root = trace.getTracer('agent-evals').startSpan('agent-evals.trial', { root: true, attributes: { [TRIAL_ATTRIBUTE]: label } });
  if (trialSpans.has(root.spanContext().traceId)) return root;
  root.end();
  throw new AgentEvalsError(FOREIGN_PROVIDER);
}

const NO_ASYNC_CONTEXT =
  'otel: true: the OpenTelemetry context manager registered in this process does not keep the active span across `await`, so spans cannot be told apart by trial; register an AsyncLocalStorage context manager, or none and agent-evals registers its own';

/**
 * Checked when the target is built: a registration that hides the spans, or a context manager
 * that loses the active span across `await`, stops the run before any trial.
 */
async function checkSetup(name: string, where: { file?: string; field: string }): Promise<void> {
  const release = acquire();
  try {
    const probe = startRoot(`check ${name}`);
    const kept = await context.with(trace.setSpan(context.active(), probe), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return trace.getActiveSpan() === probe;
    });
    probe.end();
    trialSpans.close(probe.spanContext().traceId);
    if (!kept) throw new AgentEvalsError(NO_ASYNC_CONTEXT);
  } catch (err) {
    throw new UserError(errorMessage(err), where);
  } finally {
    release();
  }
}

/** The function wrapped: its call traced, its spans read into the run it returns. */
function traced(name: string, fn: TargetFunction, warn: ((message: string) => void) | undefined, telemetry: AISDKTelemetry | undefined): TargetFunction {
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    warn?.(message);
  };
  return async (input, ctx) => {
    const release = acquire();
    const unregister = telemetry?.lease();
    try {
      const root = startRoot(`${ctx.trial.suite}/${ctx.trial.id}#${ctx.trial.trial} turn ${ctx.turn}`);
      const traceId = root.spanContext().traceId;
      const steps = () => stepsFromSpans(trialSpans.spans(traceId));
      // A timeout settles the trial without waiting for the function: its spans so far are kept
      // beside what ctx recorded (that listener was added first, so its run is already there).
      const onAbort = () => {
        const reason: unknown = ctx.signal.reason;
        if (reason instanceof AgentEvalsError) withSpent(reason, { run: { reply: '', steps: mergeReturnedRun(reason.spent?.run?.steps ?? [], { reply: '', steps: steps() }).run.steps ?? [] } });
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      let value: string | AgentRun;
      let spans: SpanRecord[];
      try {
        value = await context.with(trace.setSpan(context.active(), root), () => fn(input, ctx));
        root.end();
        spans = trialSpans.spans(traceId);
      } catch (err) {
        root.setStatus({ code: SpanStatusCode.ERROR });
        root.end();
        throw withPartialRun(err, { reply: '', steps: steps() });
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        trialSpans.close(traceId);
      }
      const spanSteps = stepsFromSpans(spans);
      const missing = withoutModelCall(value, spans);
      if (missing) throw withPartialRun(missing, { reply: '', steps: spanSteps });
      return withSpanSteps(name, value, spanSteps, warnOnce);
    } finally {
      unregister?.();
      release();
    }
  };
}

/**
 * A trial whose trace holds no model call has an unknown trajectory, not an empty one: its
 * trajectory assertions would pass or fail on nothing. It is a trial error naming what is missing,
 * unless the function returned its run with a step list of its own (`{ reply, steps: [] }` says it
 * answered without a model call).
 */
function withoutModelCall(value: string | AgentRun, spans: readonly SpanRecord[]): AgentEvalsError | undefined {
  if (spans.some(isModelCall)) return undefined;
  if (typeof value === 'object' && value !== null && Array.isArray(value.steps)) return undefined;
  const seen =
    spans.length === 0
      ? 'no span'
      : `${spans.length} span${spans.length === 1 ? '' : 's'} (${spans
          .slice(0, 3)
          .map((s) => JSON.stringify(s.name))
          .join(', ')}${spans.length > 3 ? ', …' : ''}), none a model call`;
  return new AgentEvalsError(
    `otel: true: this trial's trace holds ${seen}, so its tool calls and usage are unknown. ` +
      "Turn the agent's telemetry on: AI SDK 6 `experimental_telemetry: { isEnabled: true }` on each call; AI SDK 7 @ai-sdk/otel installed (agent-evals registers it) " +
      `or registered by you, and telemetry not turned off; another framework, its OpenTelemetry instrumentation. An agent that answered without a model call returns { reply, steps: [] }`,
  );
}

/** The reply the function returned with the spans' steps; steps it returned itself follow, each call counted once. */
function withSpanSteps(name: string, value: string | AgentRun, steps: Step[], warn: (message: string) => void): string | AgentRun {
  if (typeof value === 'string') return { reply: value, steps };
  if (value === null || typeof value !== 'object') return value; // the function target names the bad value
  const merged = mergeReturnedRun(steps, returnedRun(name, value));
  if (merged.countedOnce > 0) warn(`target "${name}" (otel: true) returned usage its spans already recorded: each call is counted once`);
  if (merged.addedBoth) warn(`target "${name}" (otel: true) returned usage besides what its spans recorded: both are counted (return the run without usage if they are the same calls)`);
  return merged.run;
}

/** `rootDir`, the config file's folder, is where the project's packages are resolved from (then the working directory). */
export async function otelTarget(name: string, fn: TargetFunction, options: FunctionTargetOptions, configFile: string | null, rootDir: string): Promise<Target> {
  const where = { ...(configFile ? { file: configFile } : {}), field: `targets.${name}.otel` };
  await checkSetup(name, where);
  const telemetry = await aiSDKTelemetry(rootDir, where);
  return functionTarget(name, traced(name, fn, options.warn, telemetry), options);
}
