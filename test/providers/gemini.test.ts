/**
 * The `google` provider (Gemini API over `@google/genai`) against a fake that refuses what the docs
 * refuse (test/support/fake-gemini.ts): a model-agent tool loop on a Gemini 3 model carries the
 * function-call turn's thought signature back unchanged; a judge gets its structured answer through
 * `responseJsonSchema`; usage counts thinking tokens as output; the spec's effort becomes a
 * `thinkingLevel`. Direct SDK calls show the fake refusing the same loop without the signature.
 */
import { ApiError, GenerateContentResponse, GoogleGenAI, type GenerateContentParameters } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { geminiParams } from '../../src/providers/wires/gemini/gemini.js';
import { fromGeminiResponse } from '../../src/providers/wires/gemini/gemini-wire.js';
import { GEMINI_BODIES } from '../../src/providers/wires/gemini/bodies.js';
import { toGeminiResponseSchema } from '../../src/providers/wires/gemini/gemini-output-schema.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { createTarget } from '../../src/targets/create-target.js';
import { judgeService, plannedCase, sampleRun, splitPrompt, trialContext } from '../judges/helpers.js';
import { startFakeGemini, type FakeGemini } from '../support/fake-gemini.js';
import { never, storeTools, trialInput } from '../targets/helpers.js';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const KEY = 'test-key';
const MODEL = 'gemini-3.8-flash';

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

async function toolLoop() {
  fake = await startFakeGemini({
    apiKey: KEY,
    script: [
      { toolCalls: [{ id: 'call_lookup', name: 'orders_lookup', args: { orderId: 'A1049' } }], usage: { input: 120, output: 9, reasoning: 31 } },
      { text: 'Order A1049 has shipped.', usage: { input: 180, output: 7, reasoning: 12, cached: 100 } },
    ],
  });
  const target = await createTarget(
    'gem',
    { model: { provider: 'google', model: MODEL, baseURL: fake.url }, instructions: 'You are the store agent.', tools: storeTools },
    { rootDir: '.', configFile: 'evals.config.ts', env: { GEMINI_API_KEY: KEY }, limiters: new ProviderLimiters() },
  );
  return { f: fake, run: await target.run(trialInput('Where is order A1049?'), never) };
}

describe('Gemini model-agent tool loop', () => {
  it('completes, the second request carrying the function-call turn with its thought signature unchanged', async () => {
    const { f, run } = await toolLoop();
    expect(run).toMatchObject({ reply: 'Order A1049 has shipped.', stopReason: 'stop' });
    expect(run.steps?.[0]?.toolCalls?.map((c) => c.name)).toEqual(['orders_lookup']);
    expect(f.requests.map((r) => [r.path, r.headers['x-goog-api-key']])).toEqual([
      [`/v1beta/models/${MODEL}:generateContent`, KEY],
      [`/v1beta/models/${MODEL}:generateContent`, KEY],
    ]);
    const [first, second] = f.bodies;
    expect(first.systemInstruction).toEqual({ parts: [{ text: 'You are the store agent.' }] });
    expect(first.tools[0].functionDeclarations.map((d: any) => d.name)).toEqual(['orders_lookup', 'policy_lookup', 'refunds_issue']);
    expect(first.tools[0].functionDeclarations[0].parametersJsonSchema).toMatchObject({ type: 'object', properties: { orderId: { type: 'string' } } });
    const [signature] = [...f.signatures];
    expect(second.contents[1]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'call_lookup', name: 'orders_lookup', args: { orderId: 'A1049' } }, thoughtSignature: signature }] });
    expect(second.contents[2].role).toBe('user');
    expect(second.contents[2].parts[0].functionResponse).toMatchObject({ id: 'call_lookup', name: 'orders_lookup', response: { output: expect.stringContaining('A1049') } });
  });

  it('reads usage with thinking tokens as output, cached tokens apart', async () => {
    const { run } = await toolLoop();
    expect(run.steps?.map((s) => s.usage)).toEqual([
      { inputTokens: 120, outputTokens: 40, reasoningTokens: 31 },
      { inputTokens: 180, outputTokens: 19, reasoningTokens: 12, cachedInputTokens: 100 },
    ]);
  });

  it('the fake refuses that second request with the signature dropped, or changed (direct SDK calls)', async () => {
    const { f } = await toolLoop();
    const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: f.url } });
    f.push({ text: 'again' }, { text: 'again' });
    const call = { id: 'call_lookup', name: 'orders_lookup', args: { orderId: 'A1049' } };
    const withModelTurn = (thoughtSignature: string | undefined): GenerateContentParameters => ({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: 'Where is order A1049?' }] },
        { role: 'model', parts: [{ functionCall: call, ...(thoughtSignature !== undefined ? { thoughtSignature } : {}) }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_lookup', name: 'orders_lookup', response: { output: 'shipped' } } }] },
      ],
    });
    const dropped = await client.models.generateContent(withModelTurn(undefined)).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ApiError);
    expect(dropped).toMatchObject({ status: 400, message: expect.stringContaining('missing a thought_signature') });
    const changed = await client.models.generateContent(withModelTurn('bm90IGlzc3VlZA==')).catch((e: unknown) => e);
    expect(changed).toMatchObject({ status: 400, message: expect.stringContaining('Corrupted thought signature') });
    const [signature] = [...f.signatures];
    await expect(client.models.generateContent(withModelTurn(signature))).resolves.toBeDefined();
  });
});

describe('Gemini judge', () => {
  it('asks for its verdict with responseMimeType application/json and responseJsonSchema; verdicts come from the JSON', async () => {
    fake = await startFakeGemini({
      apiKey: KEY,
      script: (body) => {
        const user = (body.contents[0].parts as any[]).map((p) => p.text ?? '').join('');
        const word = /mentions the word "(\w+)"/.exec(user)?.[1] ?? '';
        const has = String(splitPrompt(user).block.output).includes(word);
        return { json: { score: has ? 0.9 : 0.1, reason: has ? 'it does' : 'it does not', evidence: [] } };
      },
    });
    const service = judgeService({ judge: { provider: 'google', model: MODEL, baseURL: fake.url } });
    const ctx = () => trialContext(plannedCase(), sampleRun('Order 4711 shipped yesterday.'));
    const pass = (await service.grade({ type: 'judge', criteria: 'the reply mentions the word "shipped"' }, ctx())).result;
    const fail = (await service.grade({ type: 'judge', criteria: 'the reply mentions the word "refund"' }, ctx())).result;
    expect(pass).toMatchObject({ status: 'passed', score: 0.9 });
    expect(fail).toMatchObject({ status: 'failed', score: 0.1 });
    for (const body of fake.bodies) {
      expect(body).not.toHaveProperty('tools');
      expect(body.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object', required: ['score', 'reason', 'evidence'] } });
      expect(body.systemInstruction.parts[0].text).toEqual(expect.any(String));
    }
  });
});

describe('Gemini response schema', () => {
  it('keywords responseJsonSchema does not take move into the description; the fake refuses them as sent (direct SDK call)', async () => {
    const schema = { type: 'object', properties: { verdict: { type: 'string', pattern: '^(yes|no)$', minLength: 2 }, id: { const: 'x' } }, required: ['verdict'] };
    expect(toGeminiResponseSchema(schema)).toEqual({
      type: 'object',
      properties: { verdict: { type: 'string', description: '(pattern: "^(yes|no)$", minLength: 2)' }, id: { description: '(const: "x")' } },
      required: ['verdict'],
    });
    fake = await startFakeGemini({ apiKey: KEY, script: [{ json: { verdict: 'yes' } }] });
    const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: fake.url } });
    const ask = (responseJsonSchema: unknown): GenerateContentParameters => ({ model: MODEL, contents: 'yes or no?', config: { responseMimeType: 'application/json', responseJsonSchema } });
    await expect(client.models.generateContent(ask(schema))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('keyword \\"pattern\\" is not supported') });
    await expect(client.models.generateContent(ask(toGeminiResponseSchema(schema)))).resolves.toBeDefined();
  });
});

describe('Gemini thinking settings', () => {
  it("a Gemini 3 spec's reasoningEffort is sent as thinkingConfig.thinkingLevel", async () => {
    fake = await startFakeGemini({ apiKey: KEY, script: [{ text: 'ok' }] });
    const provider = createProvider({ provider: 'google', model: MODEL, baseURL: fake.url, reasoningEffort: 'low' }, { GEMINI_API_KEY: KEY }, { limiters: new ProviderLimiters() });
    const res = await provider.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res).toMatchObject({ text: 'ok', finishReason: 'stop', usage: { reasoningTokens: 7 } });
    expect(fake.bodies[0].generationConfig).toEqual({ thinkingConfig: { thinkingLevel: 'LOW' } });
  });

  it('an effort the model does not take stops before any call, naming the values it takes', () => {
    expect(() => createProvider({ provider: 'google', model: MODEL, reasoningEffort: 'max' }, { GEMINI_API_KEY: KEY }, { limiters: new ProviderLimiters() })).toThrow(
      /google:gemini-3\.8-flash: reasoningEffort "max" is not one the model takes: low, medium, high/,
    );
  });

  it('the typed params of a 2.5 Flash spec at effort none turn thinking off with a budget of 0', () => {
    const params: GenerateContentParameters = geminiParams({ provider: 'google', model: 'gemini-2.5-flash', reasoningEffort: 'none' }, { messages: [{ role: 'user', content: 'hi' }] });
    expect(params.config?.thinkingConfig).toEqual({ thinkingBudget: 0 });
  });
});

describe('a run with a Gemini target and a Gemini judge', () => {
  it('completes: calledTool passes on the tool loop, the rubric judge grades from its JSON, usage and cost counted', async () => {
    fake = await startFakeGemini({
      apiKey: KEY,
      script: (body) => {
        // The judge's requests ask for JSON; the target's carry the store tools.
        if (body.generationConfig?.responseMimeType === 'application/json') return { json: { score: 0.9, reason: 'it names the status', evidence: [] } };
        const answered = body.contents.some((c: any) => c.parts.some((p: any) => p.functionResponse));
        return answered
          ? { text: 'Order A1049 has shipped.', usage: { input: 200, output: 8, reasoning: 20 } }
          : { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }], usage: { input: 150, output: 6, reasoning: 40 } };
      },
    });
    const yaml = `suite: store
target: gem
cases:
  - id: status
    input: Where is order A1049?
    assert:
      - { type: calledTool, tool: orders_lookup }
      - { type: judge, criteria: the reply gives the order status }
`;
    const { results, exitCode } = await runInProcess({
      files: { 'evals/store.eval.yaml': yaml },
      env: { GEMINI_API_KEY: KEY },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { GEMINI_API_KEY: KEY } }),
      config: {
        judge: { provider: 'google', model: MODEL, baseURL: fake.url },
        targets: { gem: { model: { provider: 'google', model: MODEL, baseURL: fake.url }, instructions: 'You are the store agent.', tools: storeTools } },
      },
    });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['calledTool', 'passed'],
      ['judge', 'passed'],
    ]);
    expect(exitCode).toBe(0);
    expect(trial.usage.target).toMatchObject({ calls: 2, inputTokens: 350, outputTokens: 74, reasoningTokens: 60 });
    // gemini-3.8-flash at $0.75 / $3.75 per 1M tokens, thinking billed as output.
    expect(trial.usage.target.costUsd).toBeCloseTo((350 * 0.75 + 74 * 3.75) / 1e6, 12);
    // No function-call id from the API (a model may leave it out): the response goes back by name.
    const toolTurn = fake.bodies.find((b) => b.contents.length === 3)!;
    expect(toolTurn.contents[2].parts[0].functionResponse).toEqual({ name: 'orders_lookup', response: { output: expect.any(String) } });
  });
});

describe('Gemini refusals and raw bodies', () => {
  const response = (fields: Partial<GenerateContentResponse>) => Object.assign(new GenerateContentResponse(), fields);

  it('a prompt blocked before any candidate, and an answer stopped for safety, are refusals naming the reason', () => {
    expect(fromGeminiResponse(response({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' as never } }), MODEL)).toMatchObject({
      text: '',
      finishReason: 'refusal',
      refusal: 'the prompt was blocked (PROHIBITED_CONTENT)',
    });
    const stopped = response({ candidates: [{ content: { role: 'model', parts: [{ text: 'Partial' }] }, finishReason: 'SAFETY' as never }] });
    expect(fromGeminiResponse(stopped, MODEL)).toMatchObject({ text: 'Partial', finishReason: 'refusal', refusal: 'the answer was stopped (SAFETY)' });
    const long = response({ candidates: [{ content: { role: 'model', parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' as never }] });
    expect(fromGeminiResponse(long, MODEL).finishReason).toBe('length');
  });

  it("reads a recorded body's usage, function calls and function responses; answers a dry run in the API's format", () => {
    const body = {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'orders_lookup', args: { orderId: 'A1049' } }, thoughtSignature: 'c2ln' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 4, thoughtsTokenCount: 16 },
      modelVersion: MODEL,
    };
    expect(GEMINI_BODIES.usageFromJson(body)).toEqual({ usage: { inputTokens: 50, outputTokens: 20, reasoningTokens: 16 }, model: MODEL });
    expect(GEMINI_BODIES.toolCallsFromJson(body)).toEqual([{ id: undefined, name: 'orders_lookup', args: { orderId: 'A1049' } }]);
    const request = { contents: [{ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'orders_lookup', response: { output: '{"status":"shipped"}' } } }] }] };
    expect(GEMINI_BODIES.toolResultsFromRequest(request)).toEqual([{ id: 'c1', result: { status: 'shipped' }, isError: false }]);
    expect(GEMINI_BODIES.dryRunAnswer(`/v1beta/models/${MODEL}:generateContent`, MODEL, false, 'dry')).toMatchObject({ json: { candidates: [{ content: { parts: [{ text: 'dry' }] } }] } });
    expect(GEMINI_BODIES.dryRunAnswer('/v1/chat/completions', MODEL, false, 'dry')).toBeUndefined();
  });
});
