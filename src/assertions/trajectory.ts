import { z } from 'zod';
import { isModelCall, toolCallsOf, type AgentRun, type ToolCall } from '../core/agent-run.js';
import { conceal } from '../core/digest.js';
import type { TracePolicy } from '../core/judge-port.js';
import { assertionObject, defineAssertion, final } from './define.js';
import { binary, MAX_NAMED, nameList, namedFew, plural, show } from './format.js';
import { argsProblem, isPlainObject, matchesSubset } from './json-value.js';
import type { AssertionContext, CheckOutcome } from './types.js';

/** Assertions over the tool calls of the run, in call order across steps. */

/**
 * Whether a run recorded a trajectory: a step that is a model call (it carries usage, or its usage
 * is unknown) or holds tool calls, or an empty step list (a target reporting that it did nothing
 * but reply). That is what ctx.fetch, ctx.openai() / ctx.anthropic(), ctx.tool, ctx.usage, the
 * adapters, model-agent targets, OpenTelemetry spans and a command or HTTP target's steps record;
 * a reply alone (no step list, or text steps only) is none. A model call that asked for no tool is
 * a trajectory without tool calls: "called 0 times" is then the truth.
 */
export function recordedTrajectory(run: AgentRun): boolean {
  if (run.steps === undefined) return false;
  return run.steps.length === 0 || run.steps.some((s) => isModelCall(s) || s.toolCalls !== undefined);
}

/** The failure of every trajectory assertion on a trial whose target recorded no trajectory at all. */
function untraced(assertion: string, ctx: AssertionContext): CheckOutcome | undefined {
  if (!ctx.target || ctx.target.recordedTrajectory) return undefined;
  return {
    score: 0,
    message: `${assertion}: target "${ctx.target.name}" recorded no tool calls: ${ctx.target.untracedHint ?? 'use ctx.fetch, ctx.tool or an adapter (a command or HTTP target reports them as steps)'}`,
  };
}

/** A trajectory assertion's check, preceded by the no-trajectory failure. */
export function trajectoryCheck<S>(subjectOf: (spec: S) => string, check: (spec: S, ctx: AssertionContext) => CheckOutcome): (spec: S, ctx: AssertionContext) => CheckOutcome {
  return (spec, ctx) => untraced(subjectOf(spec), ctx) ?? check(spec, ctx);
}

const toolName = z.string().min(1);
const count = z.number().int().nonnegative();
/** The args filters' schemas: zod cannot render a custom type, so the published schema asks for this. */
const argsSchemas = new WeakSet<object>();
export const isArgsSchema = (schema: object): boolean => argsSchemas.has(schema);
export const ARGS_JSON_SCHEMA = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} };

/**
 * The args filter is matched as JSON, so it is checked on the value as written: zod's record drops a
 * `__proto__` key (a literal `{__proto__: {...}}` even sets the prototype), which left a filter of
 * nothing, matching any call. A custom schema hands the checked value on as it is, typed as the record.
 */
function argsSubset(assertion: string) {
  const schema = z.custom<Record<string, unknown>>((v) => isPlainObject(v) && argsProblem(v) === undefined, {
    error: (iss) => `${assertion}: ${argsProblem(iss.input) ?? 'args must be an object of argument values'}`,
  });
  argsSchemas.add(schema);
  return schema.optional();
}

function matching(calls: readonly ToolCall[], tool: string, args: Record<string, unknown> | undefined): ToolCall[] {
  return calls.filter((c) => c.name === tool && (args === undefined || matchesSubset(c.args, args)));
}

function subject(tool: string, args: Record<string, unknown> | undefined): string {
  return args === undefined ? tool : `${tool} with ${show(args)}`;
}

/** Calls of the tool that the args filter left out: the usual cause of a surprising count. */
function otherArgsNote(calls: readonly ToolCall[], tool: string, args: Record<string, unknown> | undefined, n: number): string {
  if (args === undefined) return '';
  const others = calls.filter((c) => c.name === tool).length - n;
  return others > 0 ? `; ${plural(others, 'other call')} with different args` : '';
}

/**
 * What the agent did, for a miss: the tool's calls that the args filter left out, with their args;
 * else the tool's calls (a count missed); else, the tool never called, every call it made. Args are
 * tool data: the message goes as written into the results and reports, so under the `safe` trace
 * policy (the default) they show as their digest's shape, under `full` in clear (a secret redacted
 * where the message is output, a cut end included).
 */
function missNote(calls: readonly ToolCall[], tool: string, args: Record<string, unknown> | undefined, policy: TracePolicy | undefined): string {
  const own = calls.filter((c) => c.name === tool);
  const others = args === undefined ? [] : own.filter((c) => !matchesSubset(c.args, args));
  if (others.length > 0) return `; ${plural(others.length, 'other call')} with different args: ${callList(others, false, policy)}`;
  if (own.length > 0) return `; its ${own.length === 1 ? 'call' : 'calls'}: ${callList(own, false, policy)}`;
  return calls.length > 0 ? `; calls made: ${callList(calls, true, policy)}` : '';
}

function callList(calls: readonly ToolCall[], named: boolean, policy: TracePolicy | undefined): string {
  const shown = calls.slice(0, MAX_NAMED).map((c) => {
    const args = c.args === undefined ? '' : show(policy === 'full' ? c.args : conceal(c.args).preview);
    return named ? `${c.name}${args ? ` ${args}` : ''}` : args || '(no args)';
  });
  return namedFew(shown, calls.length);
}

export const calledTool = defineAssertion(
  assertionObject('calledTool', { tool: toolName, args: argsSubset('calledTool'), times: count.optional(), atLeast: count.optional(), atMost: count.optional() }).superRefine((spec, ctx) => {
    if (spec.times !== undefined && (spec.atLeast !== undefined || spec.atMost !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['times'], message: 'calledTool takes either times or atLeast/atMost, not both' });
    }
    if (spec.atLeast !== undefined && spec.atMost !== undefined && spec.atLeast > spec.atMost) {
      ctx.addIssue({ code: 'custom', path: ['atLeast'], message: `calledTool atLeast ${spec.atLeast} is greater than atMost ${spec.atMost}` });
    }
  }),
  trajectoryCheck(
    (spec) => `calledTool ${subject(spec.tool, spec.args)}`,
    (spec, ctx) => {
      const calls = toolCallsOf(ctx.run);
      const n = matching(calls, spec.tool, spec.args).length;
      // With no bound given, "called" means at least once.
      const min = spec.times ?? spec.atLeast ?? (spec.atMost === undefined ? 1 : 0);
      const max = spec.times ?? spec.atMost ?? Infinity;
      const ok = n >= min && n <= max;
      return {
        score: binary(ok),
        message: `calledTool ${subject(spec.tool, spec.args)}: called ${plural(n, 'time')} (expected ${expectedCount(spec.times, min, max)})${ok ? otherArgsNote(calls, spec.tool, spec.args, n) : missNote(calls, spec.tool, spec.args, ctx.tracePolicy)}`,
      };
    },
  ),
);

function expectedCount(times: number | undefined, min: number, max: number): string {
  if (times !== undefined) return `exactly ${times}`;
  if (max === Infinity) return `at least ${min}`;
  return min === 0 ? `at most ${max}` : `between ${min} and ${max}`;
}

export const notCalledTool = final(
  defineAssertion(
    assertionObject('notCalledTool', { tool: toolName, args: argsSubset('notCalledTool') }),
    trajectoryCheck(
      (spec) => `notCalledTool ${subject(spec.tool, spec.args)}`,
      (spec, ctx) => {
        const calls = toolCallsOf(ctx.run);
        const n = matching(calls, spec.tool, spec.args).length;
        return {
          score: binary(n === 0),
          message: `notCalledTool ${subject(spec.tool, spec.args)}: called ${plural(n, 'time')}${otherArgsNote(calls, spec.tool, spec.args, n)}`,
        };
      },
    ),
  ),
);

function isSubsequence(wanted: readonly string[], actual: readonly string[]): boolean {
  let i = 0;
  for (const name of actual) if (i < wanted.length && name === wanted[i]) i++;
  return i === wanted.length;
}

const names = (ctx: AssertionContext): string[] => toolCallsOf(ctx.run).map((c) => c.name);

/** The tools appear in this order; other calls may come before, between or after them. */
export const toolOrder = defineAssertion(
  assertionObject('toolOrder', { tools: z.array(toolName).min(1) }),
  trajectoryCheck(
    (spec) => `toolOrder ${nameList(spec.tools)}`,
    (spec, ctx) => {
      const actual = names(ctx);
      return { score: binary(isSubsequence(spec.tools, actual)), message: `toolOrder ${nameList(spec.tools)}: actual sequence ${nameList(actual)}` };
    },
  ),
);

/** Exactly these calls, in this order, and nothing else. An empty list means no calls. */
export const toolSequence = defineAssertion(
  assertionObject('toolSequence', { tools: z.array(toolName) }),
  trajectoryCheck(
    (spec) => `toolSequence ${nameList(spec.tools)}`,
    (spec, ctx) => {
      const actual = names(ctx);
      const ok = actual.length === spec.tools.length && actual.every((n, i) => n === spec.tools[i]);
      return { score: binary(ok), message: `toolSequence ${nameList(spec.tools)}: actual sequence ${nameList(actual)}` };
    },
  ),
);

export const usedNoTools = final(
  defineAssertion(
    assertionObject('usedNoTools', {}),
    trajectoryCheck(
      () => 'usedNoTools',
      (_spec, ctx) => {
        const actual = names(ctx);
        return {
          score: binary(actual.length === 0),
          message: `usedNoTools: ${plural(actual.length, 'tool call')}${actual.length > 0 ? ` ${nameList(actual)}` : ''}`,
        };
      },
    ),
  ),
);

export const maxToolCalls = final(
  defineAssertion(
    assertionObject('maxToolCalls', { max: count }),
    trajectoryCheck(
      (spec) => `maxToolCalls ${spec.max}`,
      (spec, ctx) => {
        const n = toolCallsOf(ctx.run).length;
        return { score: binary(n <= spec.max), message: `maxToolCalls ${spec.max}: ${plural(n, 'tool call')}` };
      },
    ),
  ),
);

export const noToolErrors = final(
  defineAssertion(
    assertionObject('noToolErrors', {}),
    trajectoryCheck(
      () => 'noToolErrors',
      (_spec, ctx) => {
        const calls = toolCallsOf(ctx.run);
        const failed = calls.filter((c) => c.isError === true).map((c) => c.name);
        return {
          score: binary(failed.length === 0),
          message: `noToolErrors: ${failed.length} of ${plural(calls.length, 'tool call')} errored${failed.length > 0 ? ` ${nameList(failed)}` : ''}`,
        };
      },
    ),
  ),
);

export const trajectoryAssertions = [calledTool, notCalledTool, toolOrder, toolSequence, usedNoTools, maxToolCalls, noToolErrors] as const;
