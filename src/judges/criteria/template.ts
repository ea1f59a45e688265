import type { Criterion } from '../../core/judge-port.js';
import { boundedMemo } from '../../core/bounded-memo.js';

/** A criterion's answer once validated and mapped to a score in [0, 1]. */
export interface Verdict {
  score: number;
  reason: string;
  evidence: string[];
  dimensions?: Record<string, number>;
  choice?: string;
}

/** The response contract a criterion asks for: JSON Schema for the model, a validator for us. */
export interface ResponseContract {
  name: string;
  jsonSchema: Record<string, unknown>;
  /** The verdict on `output` (the graded text), or a message saying what is wrong with the answer. */
  read(answer: unknown, output: string): Verdict | string;
}

/** One criterion: our own prompt text and the answer it expects. */
export interface CriterionTemplate<C extends Criterion = Criterion> {
  kind: C['kind'];
  /** Trusted instructions: what to decide and how to answer. */
  task(c: C): string;
  /** Trusted context sections from the eval file (reference, source, question). */
  context(c: C): Array<[tag: string, text: string]>;
  /** The graded texts (and retrieved context), placed inside the untrusted block beside the trace. */
  graded(c: C, output: string): Record<string, string | string[]>;
  contract(c: C): ResponseContract;
}

export const reasonSchema = { type: 'string', description: 'Why, in one to three sentences, citing what you saw.' };
export const evidenceSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'Short, checkable observations that support the verdict (quotes, tool names, facts).',
};

/** Checks shared by every contract: an object, a non-empty reason, evidence as a list of strings. */
export function readCommon(answer: unknown): { obj: Record<string, unknown>; reason: string; evidence: string[] } | string {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return 'expected a JSON object';
  const obj = answer as Record<string, unknown>;
  if (typeof obj.reason !== 'string' || obj.reason.trim() === '') return 'missing or empty "reason"';
  const evidence = obj.evidence ?? [];
  if (!Array.isArray(evidence) || evidence.some((e) => typeof e !== 'string')) return '"evidence" must be a list of strings';
  return { obj, reason: obj.reason.trim(), evidence: evidence as string[] };
}

/**
 * Contracts are pure functions of their arguments and hold nothing of a call: one per distinct
 * contract is built and shared (never mutated), so a judge serializes its schema once, not per call.
 */
const contracts = boundedMemo<string, ResponseContract>(1_000);

function sharedContract(args: unknown[], build: () => ResponseContract): ResponseContract {
  return contracts(JSON.stringify(args), build);
}

/** A closed set of choices, each with its score: the raw choice is kept in the verdict. */
export function choiceContract(name: string, field: string, scores: Record<string, number>): ResponseContract {
  return sharedContract(['choice', name, field, scores], () => buildChoiceContract(name, field, { ...scores }));
}

function buildChoiceContract(name: string, field: string, scores: Record<string, number>): ResponseContract {
  const choices = Object.keys(scores);
  return {
    name,
    jsonSchema: {
      type: 'object',
      properties: { [field]: { type: 'string', enum: choices }, reason: reasonSchema, evidence: evidenceSchema },
      required: [field, 'reason', 'evidence'],
      additionalProperties: false,
    },
    read(answer) {
      const common = readCommon(answer);
      if (typeof common === 'string') return common;
      const choice = common.obj[field];
      if (typeof choice !== 'string' || !(choice in scores)) return `"${field}" must be one of ${choices.join(', ')} (got ${JSON.stringify(choice)})`;
      return { score: scores[choice]!, reason: common.reason, evidence: common.evidence, choice };
    },
  };
}

/** A numeric score on a 0..1 or 1..10 scale, with optional named dimensions on the same scale. */
export function scoredContract(name: string, scale: 1 | 10, dimensions: string[]): ResponseContract {
  return sharedContract(['scored', name, scale, dimensions], () => buildScoredContract(name, scale, [...dimensions]));
}

function buildScoredContract(name: string, scale: 1 | 10, dimensions: string[]): ResponseContract {
  const [lo, hi] = scale === 10 ? [1, 10] : [0, 1];
  const num = { type: 'number', minimum: lo, maximum: hi, description: scale === 10 ? 'From 1 (worst) to 10 (best).' : 'From 0 (worst) to 1 (best).' };
  const properties: Record<string, unknown> = { score: num, reason: reasonSchema, evidence: evidenceSchema };
  const required = ['score', 'reason', 'evidence'];
  if (dimensions.length) {
    properties.dimensions = {
      type: 'object',
      properties: Object.fromEntries(dimensions.map((d) => [d, num])),
      required: dimensions,
      additionalProperties: false,
    };
    required.push('dimensions');
  }
  const inRange = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
  return {
    name,
    jsonSchema: { type: 'object', properties, required, additionalProperties: false },
    read(answer) {
      const common = readCommon(answer);
      if (typeof common === 'string') return common;
      const { obj } = common;
      if (!inRange(obj.score)) return `"score" must be a number from ${lo} to ${hi} (got ${JSON.stringify(obj.score)})`;
      const verdict: Verdict = { score: obj.score / scale, reason: common.reason, evidence: common.evidence };
      if (dimensions.length) {
        const dims = obj.dimensions as Record<string, unknown> | undefined;
        const out: Record<string, number> = {};
        for (const d of dimensions) {
          const v = dims?.[d];
          if (!inRange(v)) return `dimension "${d}" missing or out of range ${lo}..${hi} (got ${JSON.stringify(v)})`;
          out[d] = v / scale;
        }
        verdict.dimensions = out;
      }
      return verdict;
    },
  };
}
