import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import { toolCallsOf } from '../core/agent-run.js';
import { frozenCopy } from '../core/read-only.js';
import type { Severity } from '../core/results-schema.js';
import type { JudgeAssertionSpec, ModelRef } from '../judges/spec.js';
import type { GroundingContext } from '../judges/grounding-context.js';
import { assertionMethods, type AssertionMethods, type ExpectFn } from './assertion-methods.js';
import type { TracePolicy } from '../core/judge-port.js';
import type { Judge } from '../core/judge-port.js';
import type { AssertionResult } from '../core/results-schema.js';
import type { TsAssertionSpec } from './schema.js';
import type { InputPartSpec } from '../core/content-parts.js';
import { similarToShorthand, type SimilarToOptions } from '../assertions/similar-to-shorthand.js';

/** Chainable options every assertion made through `t` accepts. */
export interface AssertionHandle {
  gate(): AssertionHandle;
  soft(): AssertionHandle;
  weight(w: number): AssertionHandle;
  label(text: string): AssertionHandle;
  threshold(t: number): AssertionHandle;
}

export interface JudgeHandle extends AssertionHandle {
  gate(): JudgeHandle;
  soft(): JudgeHandle;
  weight(w: number): JudgeHandle;
  label(text: string): JudgeHandle;
  threshold(t: number): JudgeHandle;
  /** Grade this text instead of the reply; the run stays as context. */
  on(text: string): JudgeHandle;
  atLeast(threshold: number): JudgeHandle;
  scale(scale: 1 | 10): JudgeHandle;
  dimensions(mins: Record<string, number>): JudgeHandle;
  /** Grade a free rubric on named choices, each with its score from 0 to 1. */
  choices(scores: Record<string, number>): JudgeHandle;
  withoutTargetInstructions(): JudgeHandle;
  trace(policy: TracePolicy): JudgeHandle;
  prefer(side: 'actual' | 'reference'): JudgeHandle;
  positionSwap(on: boolean): JudgeHandle;
  /**
   * Reads the verdict now, inside `check`: the judge runs at most once (the runner reuses this
   * answer), and only if the gates recorded before it pass on the run as it is; else `skipped`.
   */
  result(): Promise<AssertionResult>;
}

export interface JudgeBuilder {
  criteria(criteria: string): JudgeHandle;
  against(reference: string, criteria: string): JudgeHandle;
  factuality(reference?: string): JudgeHandle;
  summarizes(source: string): JudgeHandle;
  closedQa(question: string): JudgeHandle;
  sql(reference?: string): JudgeHandle;
  comparedTo(other: string, criteria?: string): JudgeHandle;
  /** Every claim of the reply is supported by the context: `{ tool: 'search' }` (that tool's results in the trial) or the text. */
  faithfulness(context: GroundingContext): JudgeHandle;
  /** The context (`{ tool }` or the text) is relevant to the input. */
  contextRelevance(context: GroundingContext): JudgeHandle;
  /** The reply addresses the input. */
  answerRelevance(): JudgeHandle;
}

/** Read access to what the target did in this trial. */
export interface RunView {
  readonly reply: string;
  readonly steps: readonly Step[];
  readonly toolCalls: readonly ToolCall[];
  readonly calledTools: readonly string[];
  /** The result of the nth call (0-based) of a tool, as text; '' when there is none. */
  toolResult(name: string, nth?: number): string;
}

/**
 * `t` in a TypeScript case's `check(t)`: each call records one assertion for this trial. The
 * deterministic methods are derived from the assertion registry (see assertion-methods.ts).
 */
export interface CheckApi extends AssertionMethods<AssertionHandle> {
  readonly input: string;
  /** The latest turn's reply (the only turn's, unless `send` was called). */
  readonly reply: string;
  readonly reference: string | undefined;
  /** 1-based number of the latest turn. */
  readonly turn: number;
  /** What the target did in the latest turn. */
  run(): RunView;
  /**
   * Sends a follow-up user message in the same conversation and resolves to the target's reply:
   * text, or content parts as a case's `input` takes them (image and file paths relative to the
   * eval file). Assertions recorded afterwards check this new turn. Needs a target that holds
   * conversations (function, model or HTTP); on any other the trial fails naming the target.
   */
  send(message: SentMessage): Promise<string>;
  useJudge(model: ModelRef | Judge): void;
  /** A custom predicate: `true`/`false`, or `{ pass, score?, reason? }`. */
  expect(name: string, fn: ExpectFn): AssertionHandle;
  /**
   * A user assertion from a module the config lists in `assertions`, by its name; its options are
   * checked against its schema when it runs (docs/guide/custom-assertions.md).
   */
  assertion(name: string, options?: Record<string, unknown>): AssertionHandle;
  /**
   * The reply's embedding is at least `threshold` cosine-similar to `value`'s (`model`, else the
   * config's `embeddingModel`): `similarTo(value, 0.8, 'openai:text-embedding-3-small')`, or with
   * options `similarTo(value, 0.8, { model, dimensions })`.
   */
  similarTo(value: string, threshold: number, modelOrOptions?: string | SimilarToOptions): AssertionHandle;
  judge(model?: ModelRef | Judge): JudgeBuilder;
  expectJudge(criteria: string, threshold?: number): JudgeHandle;
  expectJudgeAgainst(reference: string, criteria: string, threshold?: number): JudgeHandle;
}

/** What `t.send()` takes: a user message's text, or its content parts. */
export type SentMessage = string | readonly InputPartSpec[];

/** One assertion recorded by `t`: its spec and the 1-based turn it was recorded in (it checks that turn). */
export interface RecordedAssertion {
  spec: TsAssertionSpec;
  turn: number;
}

/**
 * Builds `t` over one finished run. Assertions are only recorded here (pushed to `recorded`);
 * the runner evaluates them afterwards, deterministic ones first, so building a judge costs nothing.
 */
export function createCheckApi(opts: {
  input: string;
  reference?: string;
  run: AgentRun;
  /** Continues the conversation (multi-turn); absent, `t.send` throws. */
  send?: (message: SentMessage) => Promise<AgentRun>;
  /** The turn `run` is (1 unless earlier turns were sent before `check` ran). */
  turn?: number;
  /** Grades this recorded judged assertion now (memoized by the caller). */
  readJudge?: (recorded: RecordedAssertion) => Promise<AssertionResult>;
}): { t: CheckApi; recorded: RecordedAssertion[]; caseJudge: () => ModelRef | Judge | undefined } {
  const recorded: RecordedAssertion[] = [];
  let caseJudge: ModelRef | Judge | undefined;
  let current = opts.run;
  let turn = opts.turn ?? 1;

  // One handle shape serves both kinds; the static types expose only what fits each.
  const handleFor = (entry: RecordedAssertion): JudgeHandle => {
    // Chained options write onto the recorded spec; the runner validates every spec before it runs.
    const spec: Record<string, unknown> = entry.spec;
    const set = (key: string, value: unknown): JudgeHandle => {
      spec[key] = value;
      return handle;
    };
    const handle: JudgeHandle = {
      gate: () => set('severity', 'gate' satisfies Severity),
      soft: () => set('severity', 'soft' satisfies Severity),
      weight: (w) => set('weight', w),
      label: (text) => set('label', text),
      threshold: (x) => set('threshold', x),
      atLeast: (x) => set('threshold', x),
      on: (text) => set('on', text),
      scale: (scale) => set('scale', scale),
      dimensions: (mins) => set('dimensions', mins),
      choices: (scores) => set('choices', scores),
      withoutTargetInstructions: () => set('targetInstructions', false),
      trace: (policy) => set('trace', policy),
      prefer: (side) => set('prefer', side),
      positionSwap: (on) => set('positionSwap', on),
      result: () => (opts.readJudge ? opts.readJudge(entry) : Promise.reject(new Error('result(): judges cannot be read here'))),
    };
    return handle;
  };
  // Deterministic handles are typed as AssertionHandle at the API; the shape is shared.
  const add = (spec: TsAssertionSpec): JudgeHandle => {
    const entry: RecordedAssertion = { spec, turn };
    recorded.push(entry);
    return handleFor(entry);
  };
  const judgeHandle = add;

  const judged =
    (model: ModelRef | Judge | undefined) =>
    (spec: JudgeAssertionSpec): JudgeHandle =>
      // A Judge instance has the provider and model a file's judge object has, which is how the file
      // schema (a loose object) takes it; the judge resolver tells the two apart by its `judge` method.
      judgeHandle(model === undefined ? spec : { ...spec, judge: model as ModelRef });

  // One `t.<type>(...)` per registry assertion: the builder makes the spec, `add` records it.
  const methods = assertionMethods<AssertionHandle>(add);

  // A frozen copy: a check that writes to what it reads changes neither its assertions' run nor the recorded one.
  const viewOf = (live: AgentRun): RunView => {
    const run = frozenCopy(live);
    const calls = Object.freeze(toolCallsOf(run));
    return Object.freeze({
      reply: run.reply,
      steps: run.steps ?? Object.freeze([]),
      toolCalls: calls,
      calledTools: Object.freeze(calls.map((c) => c.name)),
      toolResult(name: string, nth = 0) {
        const call = calls.filter((c) => c.name === name)[nth];
        if (call?.result === undefined) return '';
        return typeof call.result === 'string' ? call.result : JSON.stringify(call.result);
      },
    });
  };
  let view = viewOf(current);

  const t: CheckApi = {
    input: opts.input,
    get reply() {
      return current.reply;
    },
    reference: opts.reference,
    get turn() {
      return turn;
    },
    run: () => view,
    async send(message) {
      if (!opts.send) throw new Error('t.send(): this trial cannot continue its conversation');
      current = await opts.send(message);
      turn += 1;
      view = viewOf(current);
      return current.reply;
    },
    useJudge: (model) => {
      caseJudge = model;
    },
    ...methods,
    expect: (name, fn) => add({ type: 'custom', name, fn }),
    assertion: (name, options) => add({ type: 'userAssertion', name, ...(options ? { options } : {}) }),
    similarTo: (value, threshold, modelOrOptions) => add(similarToShorthand(value, threshold, modelOrOptions)),
    judge: (model) => {
      const j = judged(model);
      return {
        criteria: (criteria) => j({ type: 'judge', criteria }),
        against: (reference, criteria) => j({ type: 'judgeAgainst', reference, criteria }),
        factuality: (reference) => j({ type: 'factuality', ...(reference !== undefined ? { reference } : {}) }),
        summarizes: (source) => j({ type: 'summarizes', source }),
        closedQa: (question) => j({ type: 'closedQa', question }),
        sql: (reference) => j({ type: 'sql', ...(reference !== undefined ? { reference } : {}) }),
        comparedTo: (comparedTo, criteria) => j({ type: 'pairwise', comparedTo, ...(criteria ? { criteria } : {}) }),
        faithfulness: (context) => j({ type: 'faithfulness', context }),
        contextRelevance: (context) => j({ type: 'contextRelevance', context }),
        answerRelevance: () => j({ type: 'answerRelevance' }),
      };
    },
    expectJudge: (criteria, threshold) => judgeHandle({ type: 'judge', criteria, ...(threshold !== undefined ? { threshold } : {}) }),
    expectJudgeAgainst: (reference, criteria, threshold) => judgeHandle({ type: 'judgeAgainst', reference, criteria, ...(threshold !== undefined ? { threshold } : {}) }),
  };
  return { t, recorded, caseJudge: () => caseJudge };
}
