import { z } from 'zod';
import { errorMessage } from '../core/errors.js';
import { frozenCopy } from '../core/read-only.js';
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

export function runCustom(spec: CustomAssertionSpec, ctx: AssertionContext): Promise<CheckOutcome> {
  return runPredicate(`custom ${spec.name}`, () => spec.fn(contextView(ctx)));
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
 * Runs user code that answers a boolean or `{ pass, score?, reason? }` (`message` is taken for
 * `reason`). Never throws: a throw or a malformed answer scores 0 and says what happened.
 */
export async function runPredicate(head: string, call: () => unknown): Promise<CheckOutcome> {
  let result: unknown;
  try {
    result = await call();
  } catch (e) {
    return { score: 0, message: `${head} threw: ${errorMessage(e)}` };
  }
  return outcomeOf(head, result);
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
