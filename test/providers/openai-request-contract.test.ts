/**
 * Every kind of request the project sends on the OpenAI side — each criterion's judge request,
 * pairwise in both orders, the agent judge, a model-agent target with tools, batch lines — for a
 * model of every OpenAI family in the capability table at its default reasoning effort, and the
 * judge, agent judge and target requests again at each effort it takes. Each goes through the real code path (the real judges and target, the real SDK)
 * to the fake server, which refuses what the real API refuses: every one is accepted. A model that
 * takes no function tools on Chat Completions (or none at that effort) goes to the Responses API
 * (api-choice.ts); one that stays on Chat Completions at an effort its tools are refused at gets no
 * tool request: the wire's plan-time check refuses it first, naming the setting. Each body is also
 * rebuilt as the SDK's own `ChatCompletionCreateParamsNonStreaming` or
 * `ResponseCreateParamsNonStreaming` (compiled by tsc) and is exactly what the server received.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Criterion, JudgeRequest } from '../../src/core/judge-port.js';
import { usageFromTokens } from '../../src/core/usage.js';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { inferenceJudge } from '../../src/judges/inference-judge.js';
import { judgePairwise } from '../../src/judges/pairwise-both-orders.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { specCapabilities, specRefusal } from '../../src/providers/wires.js';
import { createProvider, providerSettings } from '../../src/providers/create.js';
import { MODEL_TABLE } from '../../src/providers/model-table.js';
import { createBatchApi } from '../../src/providers/batch-create.js';
import { parseModelSpec } from '../../src/providers/model-spec.js';
import { chosenOpenAIApi } from '../../src/providers/wires/openai/api-choice.js';
import { responsesParams } from '../../src/providers/wires/openai-responses/responses-request.js';
import { openAIParams } from '../../src/providers/wires/openai/openai-wire.js';
import type { CompletionRequest, Provider } from '../../src/providers/types.js';
import { modelAgentTarget } from '../../src/targets/model-agent.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import type { Scripted } from '../support/fake-server.js';
import { judgeRequest, TEST_ENV } from '../judges/agent-judge-helpers.js';
import { storeTools, trialInput } from '../targets/helpers.js';

const FAMILIES = MODEL_TABLE.filter((row) => row.wire === 'openai').map((row) => row.family);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Every criterion a judge is asked about, each rubric form included. */
const CRITERIA: Criterion[] = [
  { kind: 'rubric', criteria: 'Asks for verification before a refund.', scale: 1, dimensions: [] },
  { kind: 'rubric', criteria: 'Helpful and correct.', scale: 10, dimensions: ['accuracy', 'tone'], caseReference: 'Verify first.' },
  { kind: 'rubric', criteria: 'Which policy step is applied?', scale: 1, dimensions: [], choices: { verify: 1, refund: 0 }, reference: 'verify' },
  { kind: 'summarizes', source: 'Order A1049 was delivered on May 2.', scale: 1, dimensions: ['coverage'] },
  { kind: 'factuality', reference: 'Refunds need ownership verification.' },
  { kind: 'closedQa', question: 'Does the reply ask for verification?' },
  { kind: 'sql', reference: 'SELECT * FROM orders WHERE id = 1' },
];

/** A value a schema accepts (the fake answers every structured request in contract). */
function sample(schema: any): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]));
    case 'array':
      return [sample(schema.items ?? { type: 'string' })];
    case 'number':
    case 'integer':
      return schema.minimum ?? 0;
    default:
      return 'checked';
  }
}

/** What the fake answers, on Chat Completions or Responses: in contract for a judge, one tool call then a reply for an agent. */
function answer(body: any): Scripted {
  if (body.response_format?.type === 'json_schema') return { json: sample(body.response_format.json_schema.schema) };
  if (body.text?.format?.type === 'json_schema') return { json: sample(body.text.format.schema) };
  const tools: string[] = (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
  if (tools.includes('submit_judgment')) return { toolCalls: [{ name: 'submit_judgment', args: { score: 1, reason: 'asks to verify', evidence: [] } }] };
  const answered = Array.isArray(body.input) ? body.input.some((i: any) => i.type === 'function_call_output') : body.messages.some((m: any) => m.role === 'tool');
  if (tools.length > 0 && !answered) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }] };
  return { text: 'Please verify the email on the order first.' };
}

/** The provider, with every request it is asked to send recorded as it was then (a tool loop extends its history in place). */
function recording(provider: Provider, sent: CompletionRequest[]): Provider {
  return { id: provider.id, model: provider.model, spec: provider.spec, complete: (req) => (sent.push({ ...req, messages: [...req.messages] }), provider.complete(req)) };
}

const price = (tokens: Parameters<typeof usageFromTokens>[0]) => usageFromTokens(tokens, 0);

/** The effort variants a family is exercised at: its default (none set), then each it takes. */
function efforts(model: string): string[] {
  return ['default', ...(specCapabilities({ provider: 'openai', model }).reasoningEfforts ?? [])];
}

describe.each(FAMILIES)('OpenAI family %s', (model) => {
  it.each(efforts(model))('at reasoning effort %s, every request is typed by the SDK and accepted by the fake', async (effort) => {
    fake = await startFakeOpenAI({ script: answer });
    const spec = { provider: 'openai' as const, model, baseURL: fake.url, maxTokens: 4000, ...(effort !== 'default' ? { reasoningEffort: effort } : {}) };
    const limiters = new ProviderLimiters();
    const sent: CompletionRequest[] = [];
    const provider = recording(createProvider(spec, TEST_ENV, { limiters }), sent);

    // At its default effort every kind of request; at each other effort one of each wire shape.
    const full = effort === 'default';
    const criteria = full ? CRITERIA : CRITERIA.slice(0, 1);

    // The inference judge on every criterion, and pairwise in both orders.
    const judge = inferenceJudge(provider, { price });
    for (const criterion of criteria) {
      const score = await judge.judge({ ...judgeRequest(), criterion });
      expect(score.reason).toBe('checked');
    }
    const pairwise: JudgeRequest = { ...judgeRequest(), criterion: { kind: 'pairwise', criteria: 'More careful reply.', first: '', second: '' } };
    expect(await judgePairwise(judge, pairwise, 'Refunded at once.', 'actual', true)).toHaveProperty('outcome');

    // The agent judge, with an evidence tool beside submit_judgment, and a model-agent target with
    // tools (two steps, at a temperature of its own). A model that takes no function tools on Chat
    // Completions, or none at this effort, is refused before anything is sent (the run's plan-time check).
    const agent = agentJudge({ model: spec, tools: [storeTools[1]!], guards: { maxSteps: 3 }, options: { env: TEST_ENV } });
    const target = modelAgentTarget('store-agent', { provider, tools: storeTools, instructions: 'You are a store agent.', temperature: 0.3, maxTokens: 2000 });
    // A spec the table sends to the Responses API (api-choice.ts) takes its tools there; specRefusal asks the spec's wire.
    const api = chosenOpenAIApi(parseModelSpec(spec), specCapabilities(spec));
    const refused = specRefusal(spec, { tools: true, structuredOutput: false });
    const toolsSent = refused === undefined;
    if (toolsSent) {
      expect((await agent.judge(judgeRequest())).score).toBe(1);
      const run = await target.run(trialInput('Refund A1049'), new AbortController().signal);
      expect(run.stopReason).toBe('stop');
      expect(run.steps).toHaveLength(2);
    } else {
      expect(refused).toMatch(new RegExp(`^model openai:${model.replace(/\./g, '\\.')} on OpenAI Chat Completions: function tools are taken only`));
    }

    // Each recorded request rebuilt as the SDK's own type is exactly the body the server took.
    const live = fake.bodies.filter((_, i) => fake!.requests[i]!.path === (api === 'responses' ? '/v1/responses' : '/v1/chat/completions'));
    for (const req of sent.filter((r) => toolsSent || !r.tools?.length)) {
      if (api === 'responses') {
        const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = responsesParams(parseModelSpec(spec), req);
        expect(live).toContainEqual(JSON.parse(JSON.stringify(body)));
      } else {
        const body: OpenAI.ChatCompletionCreateParamsNonStreaming = openAIParams(spec, req);
        expect(live).toContainEqual(JSON.parse(JSON.stringify(body)));
      }
    }
    // Every criterion, pairwise twice, the agent judge once (through its own provider), the target twice.
    expect(live).toHaveLength(criteria.length + 2 + (toolsSent ? 1 + 2 : 0));
    if (!full) return;

    // The same judge requests as batch lines: validated line by line, every one answered.
    const batch = await createBatchApi(providerSettings(spec, TEST_ENV, { limiters }));
    const items = sent.filter((r) => r.schema).map((request, i) => ({ customId: `c${i}`, request }));
    const id = await batch.submit(items);
    let status = await batch.status(id);
    while (status.state === 'pending') status = await batch.status(id);
    expect(status.state).toBe('ended');
    const results = await batch.results(id);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results).toHaveLength(items.length);
  });
});
