import type { Criterion } from '../../core/judge-port.js';
import { evidenceSchema, reasonSchema, readCommon, scoredContract, type CriterionTemplate, type ResponseContract } from './template.js';

/**
 * Grounded-answer criteria (RAG-style): the retrieved CONTEXT is text the run produced or the file
 * gave, so it goes inside the untrusted block with the reply, never into a trusted section.
 */

type Faithfulness = Extract<Criterion, { kind: 'faithfulness' }>;
type ContextRelevance = Extract<Criterion, { kind: 'contextRelevance' }>;
type AnswerRelevance = Extract<Criterion, { kind: 'answerRelevance' }>;

const CONTEXT_NOTE = 'The CONTEXT is the list `context` inside the untrusted block: the passages the agent retrieved (or was given), in order.';

/** Claim verdicts → score: the share of the output's claims that the context supports. */
export const CLAIM_VERDICTS = ['supported', 'unsupported'] as const;

/**
 * The judge lists the output's claims, each supported or not; we compute the score (supported ÷
 * claims), so the number is ours and checkable. An empty output asserts nothing: 1. No claim listed
 * for an output that says something is no judgment (a lazy judge would pass any reply): an invalid
 * answer, so the assertion is a judge error, not 1.
 */
export const FAITHFULNESS_CONTRACT: ResponseContract = {
  name: 'faithfulness_judgment',
  jsonSchema: {
    type: 'object',
    properties: {
      claims: {
        type: 'array',
        description: 'Every factual claim of the OUTPUT, each with whether the CONTEXT supports it.',
        items: {
          type: 'object',
          properties: { claim: { type: 'string' }, verdict: { type: 'string', enum: [...CLAIM_VERDICTS] } },
          required: ['claim', 'verdict'],
          additionalProperties: false,
        },
      },
      reason: reasonSchema,
      evidence: evidenceSchema,
    },
    required: ['claims', 'reason', 'evidence'],
    additionalProperties: false,
  },
  read(answer, output) {
    const common = readCommon(answer);
    if (typeof common === 'string') return common;
    const claims = common.obj.claims;
    if (!Array.isArray(claims)) return '"claims" must be a list';
    let supported = 0;
    for (const [i, c] of claims.entries()) {
      const verdict = (c as { verdict?: unknown } | null)?.verdict;
      if (typeof (c as { claim?: unknown } | null)?.claim !== 'string' || !CLAIM_VERDICTS.includes(verdict as never)) {
        return `claim ${i + 1} must be { claim: string, verdict: ${CLAIM_VERDICTS.join(' | ')} }`;
      }
      if (verdict === 'supported') supported += 1;
    }
    if (claims.length === 0 && output.trim() !== '') return 'no claim listed for an output that says something: faithfulness not scored';
    const score = claims.length === 0 ? 1 : supported / claims.length;
    return { score, reason: common.reason, evidence: common.evidence, choice: `${supported}/${claims.length} claims supported` };
  },
};

export const faithfulness: CriterionTemplate<Faithfulness> = {
  kind: 'faithfulness',
  task: () =>
    [
      'Decide whether every claim of the OUTPUT is supported by the retrieved CONTEXT.',
      CONTEXT_NOTE,
      'List each factual claim the output makes. A claim is "supported" only when the context states or directly implies it;',
      'a claim the context does not mention, or contradicts, is "unsupported", even if it is true elsewhere. Use no outside knowledge.',
      'With an empty context, every claim is unsupported.',
      'An output that says anything makes at least one claim: list every one. An empty list is read as no judgment.',
    ].join('\n'),
  context: () => [],
  graded: (c, output) => ({ context: c.context, output }),
  contract: () => FAITHFULNESS_CONTRACT,
};

export const contextRelevance: CriterionTemplate<ContextRelevance> = {
  kind: 'contextRelevance',
  task: () =>
    [
      'Decide how relevant the retrieved CONTEXT is to the INPUT: does it hold what is needed to answer it?',
      CONTEXT_NOTE,
      'Score from 0 (nothing in it bears on the input, or it is empty) to 1 (every passage is relevant and together they hold what is needed).',
      'Judge the context only, not the output.',
    ].join('\n'),
  context: () => [],
  graded: (c) => ({ context: c.context }),
  contract: () => scoredContract('context_relevance_judgment', 1, []),
};

export const answerRelevance: CriterionTemplate<AnswerRelevance> = {
  kind: 'answerRelevance',
  task: () =>
    [
      'Decide how well the OUTPUT addresses the INPUT: does it answer what was asked, directly and completely, without going off topic?',
      'Do not judge whether it is true, only whether it is an answer to this input.',
      'Score from 0 (does not address the input) to 1 (addresses exactly what was asked).',
    ].join('\n'),
  context: () => [],
  graded: (_c, output) => ({ output }),
  contract: () => scoredContract('answer_relevance_judgment', 1, []),
};
