/**
 * The OpenAI Responses API as a wire: model specs the capability table sends there (or whose `api`
 * says so) go to `POST /v1/responses` through the real SDK, against the fake that refuses what the
 * API refuses (function tools on Chat Completions for these models, a function call sent back
 * without its reasoning item, an edited reasoning item, an effort the model does not take). Each body
 * the fake took is rebuilt as the SDK's own `ResponseCreateParamsNonStreaming` (compiled by tsc).
 */
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { inferenceJudge } from '../../src/judges/inference-judge.js';
import { usageFromTokens } from '../../src/core/usage.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createBatchApi } from '../../src/providers/batch-create.js';
import { createProvider, providerSettings } from '../../src/providers/create.js';
import { parseModelSpec, type ModelSpecInput } from '../../src/providers/model-spec.js';
import type { CompletionRequest, Provider } from '../../src/providers/types.js';
import { responsesParams } from '../../src/providers/wires/openai-responses/responses-request.js';
import { modelAgentTarget } from '../../src/targets/model-agent.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import type { Scripted } from '../support/fake-server.js';
import { check, makeCtx } from '../assertions/helpers.js';
import { judgeRequest, TEST_ENV } from '../judges/agent-judge-helpers.js';
import { ordersLookup, refundsIssue, trialInput } from '../targets/helpers.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import type { MediaPart } from '../../src/core/content-parts.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

const price = (tokens: Parameters<typeof usageFromTokens>[0]) => usageFromTokens(tokens, 0);

/** The provider, with every request it is asked to send recorded as it was then (a tool loop extends its history in place). */
function recording(provider: Provider, sent: CompletionRequest[]): Provider {
  return { id: provider.id, model: provider.model, spec: provider.spec, complete: (req) => (sent.push({ ...req, messages: [...req.messages] }), provider.complete(req)) };
}

/** Each request rebuilt as the SDK's own Responses type is exactly a body the server took on /v1/responses. */
function expectTypedBodies(spec: Parameters<typeof parseModelSpec>[0], sent: CompletionRequest[]): void {
  const live = fake!.bodies.filter((_, i) => fake!.requests[i]!.path === '/v1/responses');
  expect(live).toHaveLength(sent.length);
  for (const req of sent) {
    const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = responsesParams(parseModelSpec(spec), req);
    expect(live).toContainEqual(JSON.parse(JSON.stringify(body)));
  }
}

/** A store agent's two steps: look the order up, refund it, then answer. */
function storeScript(body: any): Scripted {
  const outputs = (body.input as any[]).filter((i) => i.type === 'function_call_output').length;
  const usage = { input: 100, output: 40, reasoning: 25, cached: 10 };
  if (outputs === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }], usage };
  if (outputs === 1) return { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A1049' } }], usage };
  return { text: 'Refunded order A1049.', usage };
}

describe('the OpenAI Responses API wire', () => {
  it('runs a gpt-6.1-sol model-agent target with two tools: reasoning items carried back unchanged, usage with reasoning tokens', async () => {
    fake = await startFakeOpenAI({ script: storeScript });
    const spec = { provider: 'openai' as const, model: 'gpt-6.1-sol', baseURL: fake.url, reasoningEffort: 'high' };
    const sent: CompletionRequest[] = [];
    const provider = recording(createProvider(spec, TEST_ENV, { limiters: new ProviderLimiters() }), sent);
    const target = modelAgentTarget('store-agent', { provider, tools: [ordersLookup, refundsIssue], instructions: 'You are a store agent.', maxTokens: 2000 });

    const run = await target.run(trialInput('Refund A1049'), new AbortController().signal);
    expect(run.stopReason).toBe('stop');
    expect(run.reply).toBe('Refunded order A1049.');
    const ctx = makeCtx({ reply: run.reply, steps: run.steps! });
    expect(check({ type: 'calledTool', tool: 'refunds_issue' }, ctx).score).toBe(1);
    expect(check({ type: 'toolOrder', tools: ['orders_lookup', 'refunds_issue'] }, ctx).score).toBe(1);
    for (const step of run.steps!) expect(step.usage).toEqual({ inputTokens: 100, outputTokens: 40, reasoningTokens: 25, cachedInputTokens: 10 });

    // Nothing went to Chat Completions; each request went out as typed, stateless, at the effort set.
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    expectTypedBodies(spec, sent);
    const last = fake.bodies[2];
    expect(last).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'high' }, instructions: 'You are a store agent.', max_output_tokens: 2000 });
    // Both earlier turns' reasoning items went back, each before the function call it led to.
    expect(last.input.map((i: any) => i.type ?? i.role)).toEqual(['user', 'reasoning', 'function_call', 'function_call_output', 'reasoning', 'function_call', 'function_call_output']);
    // These schemas leave `additionalProperties` open, outside the strict subset: sent non-strict.
    expect(last.tools.map((t: any) => [t.type, t.name, t.strict])).toEqual([
      ['function', 'orders_lookup', false],
      ['function', 'refunds_issue', false],
    ]);
  });

  it('the fake refuses a function call sent back without its reasoning item, or with the item edited', async () => {
    fake = await startFakeOpenAI({ script: storeScript });
    const spec = parseModelSpec({ provider: 'openai', model: 'gpt-6.1-sol', baseURL: fake.url });
    const provider = createProvider(spec, TEST_ENV, { limiters: new ProviderLimiters() });
    const first = await provider.complete({ messages: [{ role: 'user', content: 'Refund A1049' }], tools: [{ name: 'orders_lookup', parameters: { type: 'object', properties: {} } }] });
    expect(first.providerBlocks?.blocks.map((b: any) => b.type)).toEqual(['reasoning', 'function_call']);
    const call = first.toolCalls[0]!;
    const toolTurn = { role: 'tool' as const, toolCallId: call.id, name: call.name, content: '{"status":"delivered"}' };
    const tools = [{ name: 'orders_lookup', parameters: { type: 'object', properties: {} } }];

    const dropped = provider.complete({
      messages: [
        { role: 'user', content: 'Refund A1049' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls, providerBlocks: { wire: first.providerBlocks!.wire, blocks: first.providerBlocks!.blocks.slice(1) } },
        toolTurn,
      ],
      tools,
    });
    await expect(dropped).rejects.toThrow(/Item 'fc_fake0_0' of type 'function_call' was provided without its required 'reasoning' item: 'rs_fake0'/);
    const edited = first.providerBlocks!.blocks.map((b: any) => (b.type === 'reasoning' ? { ...b, encrypted_content: `${b.encrypted_content}x` } : b));
    const tampered = provider.complete({
      messages: [
        { role: 'user', content: 'Refund A1049' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls, providerBlocks: { wire: first.providerBlocks!.wire, blocks: edited } },
        toolTurn,
      ],
      tools,
    });
    await expect(tampered).rejects.toThrow(/encrypted content for item rs_fake0 could not be verified/);
  });

  it('a structured judge, an agent judge and a pairwise judge on gpt-6.1-sol complete on Responses', async () => {
    fake = await startFakeOpenAI({
      script: (body) => {
        if (body.text?.format?.type === 'json_schema') return { json: { score: 1, reason: 'asks to verify' } };
        return { toolCalls: [{ name: 'submit_judgment', args: { score: 1, reason: 'asks to verify', evidence: [] } }], usage: { reasoning: 7 } };
      },
    });
    const spec = { provider: 'openai' as const, model: 'gpt-6.1-sol', baseURL: fake.url };
    const sent: CompletionRequest[] = [];
    const judge = inferenceJudge(recording(createProvider(spec, TEST_ENV, { limiters: new ProviderLimiters() }), sent), { price });
    const score = await judge.judge(judgeRequest());
    expect(score).toMatchObject({ score: 1, reason: 'asks to verify' });
    expect(fake.bodies[0].text.format).toMatchObject({ type: 'json_schema', strict: true });
    expectTypedBodies(spec, sent);

    const agent = agentJudge({ model: spec, guards: { maxSteps: 3 }, options: { env: TEST_ENV } });
    expect((await agent.judge(judgeRequest())).score).toBe(1);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    // submit_judgment lists every field and closes its objects: strict.
    expect(fake.bodies[1].tools).toContainEqual(expect.objectContaining({ type: 'function', name: 'submit_judgment', strict: true }));
  });

  it('a simulated user on gpt-6.1-sol writes its messages through Responses (structured output) until the goal is met', async () => {
    const user = (message: string, done = false): Scripted => ({ json: { done, goalMet: done, message }, usage: { input: 50, output: 7, reasoning: 3 } });
    fake = await startFakeOpenAI({ script: [user('Table for two?'), user('Friday at 7pm.'), user('', true)] });
    const desk: TargetFunction = (input) => `Booked: ${input}`;
    const out = await runInProcess({
      files: {
        'evals/booking.eval.yaml': `suite: booking
target: desk
cases:
  - id: book-a-table
    simulatedUser:
      goal: Book a table for two on Friday at 7pm.
      model: { provider: openai, model: gpt-6.1-sol, baseURL: "${fake.url}" }
      maxTurns: 5
    assert: [{ type: contains, value: Booked }]
`,
      },
      config: { targets: { desk }, judge: 'fake' },
      env: { ...TEST_ENV },
    });
    const trial = out.results.cases[0]!.trials[0]!;
    expect(trial.verdict).toBe('passed');
    expect(trial.turns?.map((t) => t.input)).toEqual(['Table for two?', 'Friday at 7pm.']);
    expect(trial.simulatedUser).toEqual({ stopped: 'goal-met' });
    expect(trial.usage.user).toMatchObject({ calls: 3, reasoningTokens: 9 });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    expect(fake.bodies[0].text.format).toMatchObject({ type: 'json_schema', strict: true });
  });

  it("sends a user turn's image and PDF as input_image and input_file parts", async () => {
    fake = await startFakeOpenAI({ script: [{ text: 'seen' }] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64');
    const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');
    const attachments: MediaPart[] = [
      { type: 'image', mediaType: 'image/png', data: png, bytes: 10, sha256: 'x' },
      { type: 'image', url: 'https://example.test/a.png' },
      { type: 'file', mediaType: 'application/pdf', name: 'order.pdf', data: pdf, bytes: 13, sha256: 'y' },
    ];
    const provider = createProvider({ provider: 'openai', model: 'gpt-6.1-sol', baseURL: fake.url }, TEST_ENV, { limiters: new ProviderLimiters() });
    expect((await provider.complete({ messages: [{ role: 'user', content: 'What is this?', attachments }] })).text).toBe('seen');
    expect(fake.bodies[0].input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${png}` },
          { type: 'input_image', detail: 'auto', image_url: 'https://example.test/a.png' },
          { type: 'input_file', filename: 'order.pdf', file_data: `data:application/pdf;base64,${pdf}` },
        ],
      },
    ]);
  });

  it('gpt-6-luna with tools and no effort set never sends effort none; with none configured it stays on Chat Completions', async () => {
    fake = await startFakeOpenAI({ script: storeScriptOrChat });
    const limiters = new ProviderLimiters();
    const target = (spec: ModelSpecInput) => modelAgentTarget('agent', { provider: createProvider(spec, TEST_ENV, { limiters }), tools: [ordersLookup, refundsIssue] });
    const run = await target({ provider: 'openai', model: 'gpt-6-luna', baseURL: fake.url }).run(trialInput('Refund A1049'), new AbortController().signal);
    expect(run.stopReason).toBe('stop');
    expect(fake.requests.every((r) => r.path === '/v1/responses')).toBe(true);
    for (const body of fake.bodies) {
      expect(body.reasoning_effort).toBeUndefined();
      expect(body.reasoning?.effort).toBeUndefined();
    }
    const before = fake.requests.length;
    await target({ provider: 'openai', model: 'gpt-6-luna', baseURL: fake.url, reasoningEffort: 'none' }).run(trialInput('Refund A1049'), new AbortController().signal);
    const chat = fake.bodies.slice(before);
    expect(fake.requests.slice(before).every((r) => r.path === '/v1/chat/completions')).toBe(true);
    expect(chat[0].reasoning_effort).toBe('none');
  });

  it('a spec may force the API: api responses on gpt-4.1-mini goes there, api chat stays on Chat Completions', async () => {
    fake = await startFakeOpenAI({ script: [{ text: 'hello' }, { text: 'hi', usage: { cached: 4 } }] });
    const limiters = new ProviderLimiters();
    const onResponses = await createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, api: 'responses', temperature: 0.2 }, TEST_ENV, { limiters }).complete({
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(onResponses.text).toBe('hello');
    const onChat = await createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, api: 'chat' }, TEST_ENV, { limiters }).complete({
      messages: [{ role: 'user', content: 'Say hi' }],
    });
    expect(onChat.usage.cachedInputTokens).toBe(4);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/chat/completions']);
    // A model that does not reason: no reasoning included, and its temperature goes out.
    expect(fake.bodies[0]).toEqual({ model: 'gpt-4.1-mini', input: [{ role: 'user', content: 'Say hello' }], store: false, temperature: 0.2 });
  });

  it('reads refusals and incomplete responses with their reasons named', async () => {
    fake = await startFakeOpenAI({
      script: [
        { text: 'I cannot help with that.', finishReason: 'refusal' },
        { text: 'cut', finishReason: 'length' },
        { text: '', finishReason: 'content_filter' },
      ],
    });
    const provider = createProvider({ provider: 'openai', model: 'gpt-6.1-sol', baseURL: fake.url }, TEST_ENV, { limiters: new ProviderLimiters() });
    const ask = () => provider.complete({ messages: [{ role: 'user', content: 'q' }] });
    expect(await ask()).toMatchObject({ finishReason: 'refusal', refusal: 'I cannot help with that.', text: 'I cannot help with that.' });
    expect(await ask()).toMatchObject({ finishReason: 'length', text: 'cut' });
    expect(await ask()).toMatchObject({ finishReason: 'refusal' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
  });

  it("maps the API's errors to the ProviderError kinds Chat Completions gets", async () => {
    fake = await startFakeOpenAI({ script: [{ status: 400, message: 'Invalid input item.' }, { status: 404 }] });
    const provider = createProvider({ provider: 'openai', model: 'gpt-6.1-sol', baseURL: fake.url, maxRetries: 0 }, TEST_ENV, { limiters: new ProviderLimiters() });
    const ask = () => provider.complete({ messages: [{ role: 'user', content: 'q' }] });
    await expect(ask()).rejects.toMatchObject({ kind: 'bad_request', message: expect.stringContaining('Invalid input item.') });
    await expect(ask()).rejects.toMatchObject({ kind: 'not_found' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
  });

  it('the fake refuses an effort the model does not take and an unknown top-level field, as the API does', async () => {
    fake = await startFakeOpenAI({ script: () => ({ text: 'x' }) });
    const post = (body: object) =>
      fetch(`${fake!.url}/responses`, { method: 'POST', headers: { authorization: 'Bearer test', 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      }));
    expect(await post({ model: 'gpt-6.1-sol', input: 'q', reasoning: { effort: 'none' } })).toMatchObject({ status: 400, body: expect.stringContaining("'reasoning.effort' does not support 'none'") });
    expect(await post({ model: 'gpt-6.1-sol', input: 'q', messages: [] })).toMatchObject({ status: 400, body: expect.stringContaining("Unknown parameter: 'messages'") });
    expect(await post({ model: 'gpt-4.1-mini', input: 'q', include: ['reasoning.encrypted_content'] })).toMatchObject({ status: 400 });
    // And Chat Completions refuses function tools for a Responses-only model.
    const chat = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-6.1-sol', messages: [{ role: 'user', content: 'q' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }),
    });
    expect(chat.status).toBe(400);
  });

  it('batches judge calls of a Responses spec as /v1/responses lines and collects them', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok' }, usage: { reasoning: 3 } }) });
    const spec = { provider: 'openai' as const, model: 'gpt-6.1-sol', baseURL: fake.url };
    const batch = await createBatchApi(providerSettings(spec, TEST_ENV, { limiters: new ProviderLimiters() }));
    const request: CompletionRequest = {
      system: 'Grade.',
      messages: [{ role: 'user', content: 'Reply: yes' }],
      schema: { name: 'grade', jsonSchema: { type: 'object', properties: { score: { type: 'number' }, reason: { type: 'string' } }, required: ['score', 'reason'], additionalProperties: false } },
    };
    const id = await batch.submit([
      { customId: 'a', request },
      { customId: 'b', request },
    ]);
    let status = await batch.status(id);
    while (status.state === 'pending') status = await batch.status(id);
    expect(status.state).toBe('ended');
    const results = await batch.results(id);
    expect(results.map((r) => r.ok && r.response.text)).toEqual(['{"score":1,"reason":"ok"}', '{"score":1,"reason":"ok"}']);
    expect(results.map((r) => r.ok && r.response.usage.reasoningTokens)).toEqual([3, 3]);
    expect(fake.batches.creates).toHaveLength(1);
    expect(fake.bodies.filter((_, i) => fake!.requests[i]!.path === '/v1/batches').map((b) => b.endpoint)).toEqual(['/v1/responses']);
    const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = responsesParams(parseModelSpec(spec), request);
    expect(body.text?.format).toMatchObject({ type: 'json_schema', name: 'grade' });
  });
});

/** The store agent on either API: tool results counted in `input` (Responses) or `messages` (Chat). */
function storeScriptOrChat(body: any): Scripted {
  if (Array.isArray(body.input)) return storeScript(body);
  const outputs = (body.messages as any[]).filter((m) => m.role === 'tool').length;
  if (outputs === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }] };
  if (outputs === 1) return { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A1049' } }] };
  return { text: 'Refunded order A1049.' };
}
