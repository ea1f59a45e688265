import { createHash } from 'node:crypto';
import type { AgentRun } from '../core/agent-run.js';
import type { Criterion, JudgeRequest } from '../core/judge-port.js';
import { agentJudgeSystem, submitSections, SUBMIT_TOOL_SCHEMA } from './agent-judge-protocol.js';
import { buildJudgePrompt } from './prompt.js';

/**
 * One fixed request per criterion kind, with every optional section present (choices, dimensions,
 * target instructions, a conversation, a tool call), so that every sentence of our judge wording for
 * that kind is in the prompts built from it.
 */
const CANONICAL: Record<Criterion['kind'], Criterion[]> = {
  rubric: [
    { kind: 'rubric', criteria: 'CRITERIA', caseReference: 'CASE_REFERENCE', scale: 10, dimensions: ['DIMENSION'] },
    { kind: 'rubric', criteria: 'CRITERIA', reference: 'REFERENCE', scale: 1, dimensions: [], choices: { GOOD: 1, BAD: 0 } },
  ],
  summarizes: [{ kind: 'summarizes', source: 'SOURCE', scale: 10, dimensions: ['DIMENSION'] }],
  factuality: [{ kind: 'factuality', reference: 'REFERENCE' }],
  closedQa: [{ kind: 'closedQa', question: 'QUESTION' }],
  sql: [{ kind: 'sql', reference: 'REFERENCE' }],
  pairwise: [{ kind: 'pairwise', criteria: 'CRITERIA', first: 'FIRST', second: 'SECOND', actualPosition: 'A' }],
  faithfulness: [{ kind: 'faithfulness', context: ['CONTEXT'] }],
  contextRelevance: [{ kind: 'contextRelevance', context: ['CONTEXT'] }],
  answerRelevance: [{ kind: 'answerRelevance' }],
};

const RUN: AgentRun = {
  reply: 'REPLY',
  model: 'MODEL',
  instructions: 'REPORTED_INSTRUCTIONS',
  steps: [{ text: 'STEP', toolCalls: [{ name: 'TOOL', args: { ARG: 'VALUE' }, result: 'RESULT', durationMs: 1 }] }],
};

function canonicalRequests(criterion: Criterion): JudgeRequest[] {
  const base = { criterion, output: 'OUTPUT', input: 'INPUT', run: RUN, tracePolicy: 'full' as const };
  return [
    { ...base, instructions: 'INSTRUCTIONS' },
    {
      ...base,
      reportedInstructions: 'REPORTED_INSTRUCTIONS',
      transcript: [
        { role: 'user', content: 'INPUT' },
        { role: 'assistant', content: 'REPLY' },
        { role: 'user', content: 'FOLLOW_UP' },
      ],
    },
  ];
}

const versions = new Map<Criterion['kind'], string>();

/**
 * The version of our judge prompt for a criterion kind: a hash of the prompts built for a fixed
 * request of that kind (the single-call judge's, with and without the schema spelled out, and the
 * agent judge's system prompt, closing sections and submit schema). Any edit of our wording changes
 * it by itself: no constant to remember to bump. Computed once per kind.
 */
export function judgePromptVersion(kind: Criterion['kind']): string {
  let version = versions.get(kind);
  if (version !== undefined) return version;
  const hash = createHash('sha256');
  for (const criterion of CANONICAL[kind]) {
    for (const req of canonicalRequests(criterion)) {
      for (const schemaInPrompt of [false, true]) {
        const p = buildJudgePrompt(req, { schemaInPrompt });
        hash.update(JSON.stringify([p.system, p.user, p.contract.name, p.contract.jsonSchema]));
      }
    }
    hash.update(JSON.stringify(submitSections(criterion)));
  }
  hash.update(JSON.stringify([agentJudgeSystem(), SUBMIT_TOOL_SCHEMA]));
  version = hash.digest('hex').slice(0, 12);
  versions.set(kind, version);
  return version;
}
