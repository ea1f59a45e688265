import { z } from 'zod';
import { BOUNDS, boundedNumber } from '../core/bounds.js';
import { repeatSetting } from '../core/repeat-setting.js';
import { reducerSetting } from '../core/reducer-setting.js';
import { deterministicAssertionSchemas } from '../assertions/registry.js';
import { customAssertionSchema } from '../assertions/custom.js';
import { similarToAssertionSchema } from '../assertions/similar-to.js';
import { userAssertionSpecSchema } from '../assertions/user-assertion.js';
import { judgeAssertionSchemas, lacksReference, missingReferenceMessage, ModelRefSchema } from '../judges/spec.js';
import { CaseInputSchema } from '../core/content-parts.js';
import { lazySchema, once } from '../core/lazy-schema.js';
import { simulatedUserSchema } from './simulated-user-schema.js';
import { toolResultsSchema } from '../targets/tool-results-schema.js';
import { caseMessageSchema } from './message-schema.js';

/**
 * The eval-file contract. `schemas/eval-file.schema.json` is generated from this. Each schema is
 * built on first use (core/lazy-schema.ts): a command that validates no eval file builds none.
 */

const assertionSpec = once(() =>
  z
    .discriminatedUnion('type', [...deterministicAssertionSchemas, ...judgeAssertionSchemas, similarToAssertionSchema, userAssertionSpecSchema])
    .meta({ id: 'Assertion', description: 'One assertion: a deterministic check or an LLM judge, selected by `type`.' }),
);
export const AssertionSpecSchema = lazySchema(assertionSpec);

/** TypeScript files may also hold custom predicates. */
const tsAssertionSpec = once(() =>
  z.discriminatedUnion('type', [...deterministicAssertionSchemas, ...judgeAssertionSchemas, similarToAssertionSchema, userAssertionSpecSchema, customAssertionSchema]),
);
export const TsAssertionSpecSchema = lazySchema(tsAssertionSpec);
export type TsAssertionSpec = z.infer<typeof TsAssertionSpecSchema>;

const caseId = once(() =>
  z
    .string()
    .min(1)
    .regex(/^[^\s*?]+$/, 'a case id has no spaces, "*" or "?" (it is matched by --filter globs)'),
);

const trialSettings = once(() => ({
  repeat: repeatSetting().optional(),
  passRate: boundedNumber(BOUNDS.fraction).optional(),
  passAt: reducerSetting('passAt').optional(),
  passHat: reducerSetting('passHat').optional(),
  timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
  tags: z.array(z.string().min(1)).optional(),
  judge: ModelRefSchema.optional(),
  /** The only tools the agent may call (a case's list replaces its suite's): any other call fails the trial. */
  onlyTools: z.array(z.string().min(1)).optional(),
}));

/** One user turn of a multi-turn case (a string or content parts, like `input`), with assertions on that turn's reply. */
const turn = once(() => z.object({ input: CaseInputSchema, assert: z.array(assertionSpec()).optional() }).strict());
export const TurnSchema = lazySchema(turn);

function caseSchema<A extends z.ZodType, X extends z.ZodRawShape>(assertion: A, extra: X) {
  return z
    .object({
      ...extra,
      id: caseId(),
      description: z.string().optional(),
      /** A string, or content parts: text, images and PDF files (core/content-parts.ts). */
      input: CaseInputSchema.optional(),
      /** Conversation history ending with the user message to answer (a user message's content may be parts). */
      messages: z.array(caseMessageSchema()).min(1).optional(),
      turns: z.array(turn()).min(1).optional(),
      /** A user model holds the conversation (simulated-user.ts) instead of scripted turns. */
      simulatedUser: simulatedUserSchema().optional(),
      /** Results served in place of tools: the `call`-th call of `tool` in the trial gets `result`, and the tool does not run. */
      toolResults: toolResultsSchema().optional(),
      reference: z.string().optional(),
      /** This case's own target, named in evals.config.ts (else the suite's). */
      target: z.string().min(1).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
      /** A generated case no one has reviewed yet: `run` skips it unless `--include-drafts`; accepting it in `review` removes the mark. */
      draft: z.boolean().optional(),
      assert: z.array(assertion).optional(),
      ...trialSettings(),
    })
    .strict()
    .superRefine((value, ctx) => {
      const c = value as { input?: unknown; messages?: unknown; turns?: Array<{ assert?: unknown[] }>; simulatedUser?: unknown; assert?: unknown[]; check?: unknown };
      const given = [c.input !== undefined, c.messages !== undefined, c.turns !== undefined, c.simulatedUser !== undefined].filter(Boolean).length;
      if (given !== 1) {
        ctx.addIssue({ code: 'custom', message: 'a case needs exactly one of "input", "messages", "turns" or "simulatedUser"', path: ['input'] });
      }
      // A case without assertions can only ever pass. (A `check` that records none fails its trial.)
      const asserts = (c.assert?.length ?? 0) + (c.turns ?? []).reduce((n, t) => n + (t.assert?.length ?? 0), 0);
      if (asserts === 0 && c.check === undefined) {
        const where = 'check' in extra ? '"assert" or "check"' : c.turns ? '"assert" on the case or on a turn' : '"assert"';
        ctx.addIssue({ code: 'custom', message: `a case needs at least one assertion (${where}); without one it can only pass`, path: ['assert'] });
      }
      referencesPresent(value as CaseLike, ctx);
    });
}

type CaseLike = { reference?: string; assert?: AssertionLike[]; turns?: Array<{ assert?: AssertionLike[] }> };
type AssertionLike = { type: string; reference?: unknown; comparedTo?: unknown };

/** A judged assertion that compares with a reference needs one, on itself or on the case. */
function referencesPresent(c: CaseLike, ctx: z.RefinementCtx): void {
  const at = (specs: AssertionLike[] | undefined, path: PropertyKey[]) =>
    (specs ?? []).forEach((spec, i) => {
      if (lacksReference(spec, c.reference)) ctx.addIssue({ code: 'custom', message: missingReferenceMessage(spec.type), path: [...path, i] });
    });
  at(c.assert, ['assert']);
  (c.turns ?? []).forEach((turn, k) => at(turn.assert, ['turns', k, 'assert']));
}

const yamlCase = once(() => caseSchema(assertionSpec(), {}));
export const CaseSchema = lazySchema(yamlCase);

const suiteFields = once(() => ({
  suite: z
    .string()
    .min(1)
    .regex(/^[^\s*?]+$/, 'a suite name has no spaces, "*" or "?"'),
  description: z.string().optional(),
  /** A target named in evals.config.ts. */
  target: z.string().min(1),
  /**
   * Run every case once per value (once per combination when several dimensions are given):
   * `target` picks the target; `model` (`provider:model` or a model id the capability table places),
   * `effort` (reasoning effort) and `instructions` (`@file` relative to the config, or the text) vary a
   * model-agent target's settings.
   */
  matrix: z
    .object({
      target: z.array(z.string().min(1)).min(1).optional(),
      model: z.array(z.string().min(1)).min(1).optional(),
      effort: z.array(z.string().min(1)).min(1).optional(),
      instructions: z.array(z.string().min(1)).min(1).optional(),
    })
    .strict()
    .refine((m) => Object.values(m).some((v) => v !== undefined), 'give at least one dimension, e.g. matrix: { target: [a, b] }')
    .optional(),
  ...trialSettings(),
}));

/** A suite with a `matrix.target` needs no `target` of its own (a settings matrix varies the suite's target). */
const targetOrMatrix = (v: { target?: unknown; matrix?: { target?: unknown } | undefined }, ctx: z.RefinementCtx) => {
  if (v.target === undefined && v.matrix?.target === undefined) ctx.addIssue({ code: 'custom', message: 'a suite needs "target" (or "matrix: { target: [...] }")', path: ['target'] });
};

/** A dataset file, relative to the eval file; the object form names its input and id columns. */
const datasetFile = once(() => z.union([z.string().min(1), z.object({ path: z.string().min(1), inputColumn: z.string().min(1).optional(), idColumn: z.string().min(1).optional() }).strict()]));

/** A suite gives `cases`, a `dataset` (whose rows all take the suite's `assert`), or both. */
function casesOrDataset(value: { cases?: unknown; dataset?: unknown; assert?: unknown[]; check?: unknown }, ctx: z.RefinementCtx): void {
  if (value.cases === undefined && value.dataset === undefined) ctx.addIssue({ code: 'custom', message: 'a suite needs "cases" or a "dataset"', path: ['cases'] });
  if (value.dataset !== undefined && !value.assert?.length && value.check === undefined) {
    ctx.addIssue({ code: 'custom', message: 'a dataset suite needs "assert" (applied to every row); without one every row can only pass', path: ['assert'] });
  }
  if (value.dataset === undefined && value.assert !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'a suite-level "assert" applies to dataset rows: add a "dataset" or move it onto the cases', path: ['assert'] });
  }
}

const evalFile = once(() =>
  z
    .object({
      ...suiteFields(),
      target: suiteFields().target.optional(),
      cases: z.array(yamlCase()).min(1).optional(),
      dataset: datasetFile().optional(),
      assert: z.array(assertionSpec()).optional(),
    })
    .strict()
    .superRefine((v, ctx) => {
      targetOrMatrix(v, ctx);
      casesOrDataset(v, ctx);
    }),
);
export const EvalFileSchema = lazySchema(evalFile);
export type EvalFile = z.infer<typeof EvalFileSchema>;

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', `expected ${what} (a function)`);

/**
 * The TypeScript surface: the same fields, plus `check(t)` on a case, custom predicates in
 * `assert`, and a target given inline as a function.
 */
const tsCase = once(() =>
  caseSchema(tsAssertionSpec(), {
    check: fn<(t: never) => unknown>('check(t)').optional(),
  }),
);
export const TsCaseSchema = lazySchema(tsCase);
export const TsEvalFileSchema = lazySchema(() =>
  z
    .object({
      ...suiteFields(),
      target: z.union([z.string().min(1), fn<(...args: never[]) => unknown>('a target')]).optional(),
      cases: z.array(tsCase()).min(1).optional(),
      /** A path, or the rows themselves: an array or an async iterable. */
      dataset: z.union([datasetFile(), z.array(z.unknown()), z.custom<AsyncIterable<unknown>>((v) => typeof v === 'object' && v !== null && Symbol.asyncIterator in v, 'expected rows')]).optional(),
      assert: z.array(tsAssertionSpec()).optional(),
      /** Runs on every dataset row's trials, like a case's `check`. */
      check: fn<(t: never) => unknown>('check(t)').optional(),
      /** Run the inline `target` in a worker thread that imports this file again (see the config's `isolate`). */
      isolate: z.boolean().optional(),
      /** The heap cap of that worker in MB (default 1024); needs `isolate: true`. */
      maxHeapMb: boundedNumber(BOUNDS.heapMb).optional(),
    })
    .strict()
    .superRefine((v, ctx) => {
      targetOrMatrix(v, ctx);
      casesOrDataset(v, ctx);
    }),
);
