import { z } from 'zod';
import { errorMessage, InterruptedError, TimeoutError } from '../core/errors.js';
import { frozenCopy } from '../core/read-only.js';
import { withTimeout } from '../core/timeout.js';
import { assertionCommonFields, type AssertionContext, type CheckOutcome } from './types.js';

/**
 * `custom`: a TypeScript predicate, for what no built-in assertion says. Only `*.eval.ts`
 * files can hold a function, so this type is kept out of the YAML registry. It may be async,
 * so it runs through `runCustom` rather than a pure `check`.
 */

export type CustomResult = boolean | { pass: boolean; score?: number; reason?: string };
export type CustomFn = (ctx: AssertionContext) => CustomResult | Promise<CustomResult>;

export const customAssertionSchema = z
  .object({
    type: z.literal('custom'),
    name: z.string().min(1),
    fn: z.custom<CustomFn>((v) => typeof v === 'function', { message: 'custom fn must be a function' }),
    ...assertionCommonFields,
  })
  .strict();
export type CustomAssertionSpec = z.infer<typeof customAssertionSchema>;

export const customDefaultSeverity = 'gate' as const;

export function runCustom(spec: CustomAssertionSpec, ctx: AssertionContext, bound?: PredicateBound): Promise<CheckOutcome> {
  return runPredicate(`custom ${spec.name}`, () => spec.fn(contextView(ctx)), bound);
}

const views = new WeakMap<AssertionContext, AssertionContext>();

/**
 * What user code checks: a frozen copy of the context (its reply, run, usage), made once per
 * context. A write throws, failing that assertion; the later assertions and the recorded trial
 * read the runner's own context, which the copy leaves as it was.
 */
export function contextView(ctx: AssertionContext): AssertionContext {
  let view = views.get(ctx);
  if (!view) {
    view = frozenCopy(ctx);
    views.set(ctx, view);
  }
  return view;
}

/**
 * How long user code may take: the case's `timeoutMs`, and the trial's signal (aborted when a
 * Ctrl-C's grace ends). A predicate that never settles would otherwise hold its trial, and the run, forever.
 */
export interface PredicateBound {
  ms: number;
  signal: AbortSignal;
}

/**
 * Runs user code that answers a boolean or `{ pass, score?, reason? }` (`message` is taken for
 * `reason`). Never throws: a throw, a malformed answer or no answer within `bound` scores 0 and
 * says what happened. Code that ignores the bound keeps running, but nothing waits for it.
 */
export async function runPredicate(head: string, call: () => unknown, bound?: PredicateBound): Promise<CheckOutcome> {
  const settled = await settleUserCode(head, call, bound);
  return 'failure' in settled ? { score: 0, message: settled.failure } : outcomeOf(head, settled.value);
}

/**
 * Awaits user code under `bound` (when given; `call` gets the bound's own signal, whose deadline
 * the caller may pause: deadline-pause.ts). Never throws: a throw, or no answer within the bound,
 * is a failure message that starts with `head`.
 */
export async function settleUserCode(head: string, call: (signal?: AbortSignal) => unknown, bound?: PredicateBound): Promise<{ value: unknown } | { failure: string }> {
  try {
    return { value: await (bound ? withTimeout(async (signal) => call(signal), bound.ms, bound.signal) : call()) };
  } catch (e) {
    if (bound && e instanceof TimeoutError && e.ms === bound.ms) return { failure: `${head}: did not settle within ${bound.ms} ms (the case's timeoutMs)` };
    if (bound?.signal.aborted && e instanceof InterruptedError) return { failure: `${head}: interrupted before it settled` };
    return { failure: `${head} threw: ${errorMessage(e)}` };
  }
}

/** The function's answer is user code: anything malformed scores 0 and says what came back. */
function outcomeOf(head: string, result: unknown): CheckOutcome {
  if (typeof result === 'boolean') {
    return { score: result ? 1 : 0, message: `${head}: returned ${result}` };
  }
  if (typeof result !== 'object' || result === null || typeof (result as { pass?: unknown }).pass !== 'boolean') {
    return { score: 0, message: `${head}: returned ${describe(result)} (expected a boolean or { pass, score?, reason? })` };
  }
  const { pass, score, reason: given, message: said } = result as { pass: boolean; score?: unknown; reason?: unknown; message?: unknown };
  const reason = given ?? said;
  if (score !== undefined && (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)) {
    return { score: 0, message: `${head}: returned score ${describe(score)} (expected a number in [0, 1])` };
  }
  const finalScore = typeof score === 'number' ? score : pass ? 1 : 0;
  const why = typeof reason === 'string' && reason !== '' ? reason : undefined;
  const message = `${head}: returned pass ${pass}, score ${finalScore}${why === undefined ? '' : ` (${why})`}`;
  return why === undefined ? { score: finalScore, message } : { score: finalScore, message, reason: why };
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
