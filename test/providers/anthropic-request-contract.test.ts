/**
 * The Anthropic request contract: every kind of request the project sends on the Anthropic side —
 * each criterion's judge request, pairwise (both orders), the agent judge's tool loop, a model-agent
 * target's tool loop, and judge requests as Message Batch lines — for a model of every Anthropic
 * family in the capability table, driven through the real code paths (judge service, agentJudge,
 * createTarget, the run's JudgeBatch) and the real SDK, to the fake that refuses what the real API
 * refuses (API version 2026-10-21). Every one is accepted, no temperature / top_p / top_k reaches a
 * body, and every body's fields are fields of the SDK's MessageCreateParamsNonStreaming.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { agentJudge } from '../../src/judges/agent-judge.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { MODEL_TABLE } from '../../src/providers/model-table.js';
import { JudgeBatch } from '../../src/judges/judge-batch.js';
import { createTarget } from '../../src/targets/create-target.js';
import { judgeRequest as agentJudgeRequest, call, submit, turn } from '../judges/agent-judge-helpers.js';
import { judgeService, plannedCase, sampleRun, trialContext } from '../judges/helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import type { Script } from '../support/fake-server.js';
import { never, storeTools, trialInput } from '../targets/helpers.js';

/**
 * The SDK's params, checked by tsc against the SDK's own type (`satisfies` fails on a field missing
 * here or one the type lacks); `true` for body fields, `false` for the two the SDK sends as headers.
 * A body field outside this set is a field the SDK does not know.
 */
const SDK_PARAMS = {
  user_profile_id: false,
  workspace_id: false,
  model: true,
  max_tokens: true,
  messages: true,
  cache_control: true,
  container: true,
  diagnostics: true,
  inference_geo: true,
  metadata: true,
  output_config: true,
  service_tier: true,
  speed: true,
  stop_sequences: true,
  stream: true,
  system: true,
  thinking: true,
  tool_choice: true,
  tools: true,
} satisfies Record<keyof Anthropic.MessageCreateParamsNonStreaming, boolean>;
const BODY_FIELDS = Object.keys(SDK_PARAMS).filter((k) => SDK_PARAMS[k as keyof typeof SDK_PARAMS]);

/** One model id per Anthropic row: the family itself, or an id continuing a line (prefix row). */
const MODELS = MODEL_TABLE.filter((r) => r.wire === 'anthropic').map((r) => (r.prefix ? `${r.family}-next` : r.family));

/** Each criterion type the judges have, with the options that change its schema. */
const CRITERIA: JudgeAssertionSpec[] = [
  { type: 'judge', criteria: 'states the shipping status politely' },
  { type: 'judge', criteria: 'states the shipping status politely', scale: 10, dimensions: { tone: 1, accuracy: 1 } },
  { type: 'judge', criteria: 'how helpful is the reply', choices: { helpful: 1, unhelpful: 0 } },
  { type: 'judgeAgainst', criteria: 'same status as the reference', reference: 'shipped on Monday' },
  { type: 'factuality', reference: 'order 4711 shipped on Monday' },
  { type: 'summarizes', source: 'Order 4711 left the warehouse on Monday by courier.' },
  { type: 'closedQa', question: 'does the reply give a shipping status?' },
  { type: 'sql', reference: 'SELECT status FROM orders WHERE id = 4711' },
  { type: 'pairwise', criteria: 'which reply is more useful', comparedTo: 'we are looking into it' },
] as JudgeAssertionSpec[];
/** Pairwise asks twice (both orders). */
const JUDGE_CALLS = CRITERIA.length + 1;

/** A plausible answer to whatever schema the request asks for, read from the body as the model would. */
function answerTo(body: any): { json: unknown } {
  const schema = body.output_config?.format?.schema ?? (body.tools as any[] | undefined)?.find((t) => t.name === body.tool_choice?.name)?.input_schema;
  if (!schema) throw new Error(`no structured output asked for in ${JSON.stringify(body).slice(0, 300)}`);
  return { json: sample(schema) };
}

function sample(schema: any): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (schema.type === 'array') return ['seen in the reply'];
  if (schema.type === 'number' || schema.type === 'integer') return 1;
  return 'the reply says so';
}

const fakes: FakeAnthropic[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function fake(script: Script): Promise<FakeAnthropic> {
  const f = await startFakeAnthropic({ script, batch: { pollsToEnd: 1 } });
  fakes.push(f);
  return f;
}

/** Every body the fake was sent: live calls and the params of each batch line. */
function bodies(f: FakeAnthropic): any[] {
  return [...f.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body), ...f.batches.created.flatMap((b) => b.requests.map((r) => r.params))];
}

function expectSdkShaped(all: any[]): void {
  for (const body of all) {
    for (const field of ['temperature', 'top_p', 'top_k']) expect(body, `${body.model}`).not.toHaveProperty(field);
    for (const field of Object.keys(body)) expect(BODY_FIELDS, `${body.model}: ${field}`).toContain(field);
  }
}

describe.each(MODELS)('every Anthropic request kind on %s', (model) => {
  it('each criterion type, pairwise in both orders: accepted live and as batch lines, no sampling parameter', async () => {
    const f = await fake((body: any) => answerTo(body));
    const judge = { provider: 'anthropic' as const, model, baseURL: f.url, temperature: 0 };
    const live = judgeService({ judge });
    const run = sampleRun();
    for (const spec of CRITERIA) {
      const graded = await live.grade(spec, trialContext(plannedCase(), run));
      expect(graded.result.status, `${spec.type}: ${JSON.stringify(graded.result)}`).toMatch(/^(passed|failed)$/);
    }
    expect(f.batches.created).toHaveLength(0);

    // The same judgments through the run's judge batch: one Message Batch of lines with the live params.
    const batch = new JudgeBatch({ polling: { firstDelayMs: 0, maxDelayMs: 0, sleep: async () => {} }, progress: () => {} });
    const batched = judgeService({ judge, batch });
    const allQueued = new Promise<void>((resolve) => batch.onQueued(() => batch.queued === JUDGE_CALLS && resolve()));
    const grades = CRITERIA.map((spec) => batched.grade(spec, trialContext(plannedCase(), run)));
    await allQueued;
    await batch.flush(never);
    for (const graded of await Promise.all(grades)) expect(graded.result.status, JSON.stringify(graded.result)).toMatch(/^(passed|failed)$/);
    expect(f.batches.created).toHaveLength(1);
    expect(f.batches.created[0]!.results.every((r) => r.result.type === 'succeeded')).toBe(true);

    const all = bodies(f);
    expect(all).toHaveLength(2 * JUDGE_CALLS);
    expectSdkShaped(all);
  });

  it('the agent judge: a tool loop ending in its submit tool, accepted, no sampling parameter', async () => {
    const f = await fake([turn([call('policy_lookup', { topic: 'refunds' })]), turn([submit(0.85, 'verified first', ['policy:refunds'])])]);
    const judge = agentJudge(() => ({
      model: { provider: 'anthropic', model, baseURL: f.url, temperature: 0 },
      tools: [storeTools[1]!],
      guards: { maxSteps: 3 },
      options: { env: { ANTHROPIC_API_KEY: 'test' } },
    }));
    const score = await judge.judge(agentJudgeRequest());
    expect(score).toMatchObject({ score: 0.85 });
    expect(f.count).toBe(2);
    expectSdkShaped(bodies(f));
  });

  it('a model-agent target with tools: a two-step tool loop, accepted, no sampling parameter', async () => {
    const f = await fake([turn([call('orders_lookup', { orderId: 'A1001' })]), { text: 'Order A1001 has shipped.' }]);
    const target = await createTarget(
      'claude',
      { model: { provider: 'anthropic', model, baseURL: f.url }, instructions: 'You are the store agent.', tools: storeTools, temperature: 0.2 },
      { rootDir: '.', configFile: 'evals.config.ts', env: { ANTHROPIC_API_KEY: 'test' }, limiters: new ProviderLimiters() },
    );
    const run = await target.run(trialInput('Where is order A1001?'), never);
    expect(run).toMatchObject({ reply: 'Order A1001 has shipped.', stopReason: 'stop' });
    expect(f.count).toBe(2);
    expectSdkShaped(bodies(f));
  });
});

describe('the Anthropic request builders', () => {
  it('build the SDK type with no cast that hides a field (the compile-time contract is real)', () => {
    for (const file of ['anthropic-wire.ts', 'anthropic.ts', 'anthropic-batch.ts']) {
      const source = readFileSync(new URL(`../../src/providers/wires/anthropic/${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/as unknown as|as any\b|\bany\b.*params|params.*\bas\b/);
    }
  });
});
