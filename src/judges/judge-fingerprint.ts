import type { Criterion, TracePolicy } from '../core/judge-port.js';
import type { JudgeFingerprint } from '../core/results-schema.js';
import { stableHash, textDigest } from '../core/stable-hash.js';
import { boundedMemo } from '../core/bounded-memo.js';
import { parseModelSpec, type ModelSpecInput } from '../providers/model-spec.js';
import { specCapabilities } from '../providers/wires.js';
import { maxTokensOf } from '../providers/max-tokens.js';
import { PAIRWISE_DEFAULT_CRITERIA } from './criterion-from-spec.js';
import { judgePromptVersion } from './judge-prompt-version.js';
import type { JudgeAssertionSpec } from './spec.js';

/** Who judges, as the judge reports itself (an agent judge: the model that answered). */
export interface JudgeWho {
  provider: string;
  model: string;
  /** The persona replacing the built-in one. */
  system?: string;
  calledWith?: Readonly<Record<string, string | number | boolean | null>>;
  tools?: readonly string[];
}

/** How the assertion is judged beyond its spec: its threshold (with the config's default) and the trace policy in force. */
export interface JudgedAs {
  threshold: number;
  trace: TracePolicy;
}

const KIND: Record<JudgeAssertionSpec['type'], Criterion['kind']> = {
  judge: 'rubric',
  judgeAgainst: 'rubric',
  summarizes: 'summarizes',
  factuality: 'factuality',
  closedQa: 'closedQa',
  sql: 'sql',
  pairwise: 'pairwise',
  faithfulness: 'faithfulness',
  contextRelevance: 'contextRelevance',
  answerRelevance: 'answerRelevance',
};

/**
 * The fingerprint of one judged assertion's judging (see JudgeFingerprintSchema): pure, and the same
 * for every trial and repeat of the assertion, since nothing of the trial (reply, trace, timings) is in it.
 */
export function judgeFingerprint(who: JudgeWho, spec: JudgeAssertionSpec, as: JudgedAs): JudgeFingerprint {
  return fingerprints(fingerprintKey(who, spec, as), () => computeFingerprint(who, spec, as));
}

/**
 * Every trial (and every case) judged alike asks for the same fingerprint: each distinct one is
 * hashed once. Shared between results, so never mutated.
 */
const fingerprints = boundedMemo<string, JudgeFingerprint>(1_000);

/** The spec's fields a fingerprint reads (criterionFields): equal keys, equal fingerprints. */
const SPEC_FIELDS = ['type', 'targetInstructions', 'criteria', 'reference', 'choices', 'scale', 'dimensions', 'source', 'question', 'comparedTo', 'prefer', 'positionSwap', 'context'] as const;

function fingerprintKey(who: JudgeWho, spec: JudgeAssertionSpec, as: JudgedAs): string {
  const read = spec as Partial<Record<(typeof SPEC_FIELDS)[number], unknown>>;
  const fields: unknown[] = [who.provider, who.model, who.system ?? null, who.calledWith ? calledWithJson(who.calledWith) : null, who.tools ?? null, as.threshold, as.trace];
  for (const f of SPEC_FIELDS) fields.push(read[f] ?? null);
  return JSON.stringify(fields);
}

/** A judge's calledWith is one object for all its judgments: serialized once. */
const calledWithJsons = new WeakMap<object, string>();
function calledWithJson(calledWith: object): string {
  let json = calledWithJsons.get(calledWith);
  if (json === undefined) calledWithJsons.set(calledWith, (json = JSON.stringify(calledWith)));
  return json;
}

function computeFingerprint(who: JudgeWho, spec: JudgeAssertionSpec, as: JudgedAs): JudgeFingerprint {
  const fields: Omit<JudgeFingerprint, 'hash'> = {
    provider: who.provider,
    model: who.model,
    ...(who.calledWith && Object.keys(who.calledWith).length ? { calledWith: { ...who.calledWith } } : {}),
    ...(who.system !== undefined ? { persona: textDigest(who.system) } : {}),
    criterion: criterionFields(spec, as),
    prompt: judgePromptVersion(KIND[spec.type]),
    ...(who.tools?.length ? { tools: [...who.tools].sort() } : {}),
  };
  return { hash: stableHash(fields), ...fields };
}

/** The criterion as the assertion writes it, its texts as digests and its defaults filled in. */
function criterionFields(spec: JudgeAssertionSpec, as: JudgedAs): JudgeFingerprint['criterion'] {
  const text = (key: 'criteria' | 'reference' | 'question' | 'source' | 'comparedTo', value: string | undefined) => (value === undefined ? {} : { [key]: textDigest(value) });
  const common = { type: spec.type, threshold: as.threshold, trace: as.trace, targetInstructions: spec.targetInstructions !== false };
  switch (spec.type) {
    case 'judge':
    case 'judgeAgainst':
      return {
        ...common,
        ...text('criteria', spec.criteria),
        ...(spec.type === 'judgeAgainst' ? text('reference', spec.reference) : {}),
        ...(spec.choices ? { choices: { ...spec.choices } } : { scale: spec.scale ?? 1 }),
        ...(spec.dimensions ? { dimensions: { ...spec.dimensions } } : {}),
      };
    case 'summarizes':
      return { ...common, ...text('source', spec.source), scale: spec.scale ?? 1, ...(spec.dimensions ? { dimensions: { ...spec.dimensions } } : {}) };
    case 'factuality':
    case 'sql':
      return { ...common, ...text('reference', spec.reference) };
    case 'closedQa':
      return { ...common, ...text('question', spec.question) };
    case 'pairwise':
      return {
        ...common,
        ...text('criteria', spec.criteria ?? PAIRWISE_DEFAULT_CRITERIA),
        ...text('comparedTo', spec.comparedTo),
        prefer: spec.prefer ?? 'actual',
        positionSwap: spec.positionSwap !== false,
      };
    case 'faithfulness':
    case 'contextRelevance':
      // The tool named, or a digest of the context given.
      return { ...common, context: typeof spec.context === 'object' && !Array.isArray(spec.context) ? { tool: spec.context.tool } : textDigest(JSON.stringify(spec.context)) };
    case 'answerRelevance':
      return common;
  }
}

/**
 * What an inference judge's calls are made with beyond provider and model, as the model spec and
 * the capability table resolve it: the structured-output mode, thinking, sampling, the reasoning
 * effort, the temperature and the output-token limit. Endpoint and headers are left out: they say
 * where a call goes, not how the model is asked (and a header may hold a secret).
 */
export function judgeCalledWith(input: ModelSpecInput, temperature: number): Record<string, string | number | null> {
  const spec = parseModelSpec(input);
  const caps = specCapabilities(spec);
  return {
    structuredOutput: caps.structuredOutput,
    thinking: caps.thinking,
    sampling: caps.sampling,
    reasoningEffort: spec.reasoningEffort ?? null,
    temperature,
    maxTokens: maxTokensOf(spec) ?? null,
  };
}
