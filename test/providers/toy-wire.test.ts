/**
 * A wire is one descriptor: a test registers a toy JSON wire (its own request and response shapes,
 * served by a fake on 127.0.0.1) and a provider speaking it, and a model target, a provider with a
 * structured answer and a function target's recording fetch run through it with no other edit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import type { ModelSpecInput } from '../../src/providers/model-spec.js';
import { registerProvider } from '../../src/providers/registry.js';
import type { WireDescriptor } from '../../src/providers/wire-descriptor.js';
import { registerWire } from '../../src/providers/wires.js';
import { createTarget } from '../../src/targets/create-target.js';
import { recordingFetch, type RecordedCall } from '../../src/targets/sdk-clients.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { never, trialInput } from '../targets/helpers.js';

/** The toy wire's reply body: `{ out, spent: { in, out }, served_by }`. */
interface ToyReply {
  out: string;
  spent: { in: number; out: number };
  served_by: string;
}

const toyWire: WireDescriptor = {
  id: 'toy-json',
  label: 'Toy JSON',
  homeProvider: 'toy',
  defaultCapabilities: { sampling: 'any', structuredOutput: 'text', thinking: 'off', tokenParam: 'max_tokens' },
  defaultMaxTokens: () => 77,
  provider: async (settings) => ({
    id: settings.spec.provider,
    model: settings.spec.model,
    spec: `${settings.spec.provider}:${settings.spec.model}`,
    async complete(req) {
      const body = {
        name: settings.spec.model,
        prompt: [req.system ?? '', ...req.messages.map((m) => m.content)].filter(Boolean).join('\n'),
        limit: req.maxTokens ?? settings.spec.maxTokens ?? 77,
        ...(req.schema ? { json_schema: req.schema.jsonSchema } : {}),
      };
      const res = await fetch(`${settings.baseURL}/toy/complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: req.signal ?? null });
      const reply = (await res.json()) as ToyReply;
      return { text: reply.out, toolCalls: [], usage: { inputTokens: reply.spent.in, outputTokens: reply.spent.out }, finishReason: 'stop', model: reply.served_by };
    },
  }),
  bodies: {
    usageFromJson: (body) => {
      const spent = body.spent as ToyReply['spent'] | undefined;
      return spent ? { usage: { inputTokens: spent.in, outputTokens: spent.out }, model: typeof body.served_by === 'string' ? body.served_by : undefined } : undefined;
    },
    streamUsage: () => ({ event: () => undefined, result: () => undefined }),
    toolCallsFromJson: () => [],
    streamToolCalls: () => ({ event: () => undefined, result: () => [] }),
    toolResultsFromRequest: () => [],
    dryRunAnswer: () => undefined,
  },
};

let server: FakeServer | undefined;
const undo: Array<() => void> = [];

afterEach(async () => {
  while (undo.length > 0) undo.pop()!();
  await server?.close();
  server = undefined;
});

async function toy(): Promise<FakeServer> {
  undo.push(registerWire(toyWire));
  undo.push(registerProvider({ id: 'toy', label: 'Toy', wire: 'toy-json', keyEnv: 'TOY_API_KEY', keyRequired: false, baseURLEnv: 'TOY_BASE_URL', batch: false, source: 'a test', asOf: '2026-12-03' }));
  server = await startFakeServer((req) => {
    const body = req.body as { name: string; prompt: string; json_schema?: unknown };
    const out = body.json_schema ? JSON.stringify({ verdict: 'ok' }) : `echo: ${body.prompt.split('\n').at(-1)}`;
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ out, spent: { in: 11, out: 3 }, served_by: `${body.name}-2026` }) };
  });
  return server;
}

describe('a wire registered as one descriptor', () => {
  it('runs a model target through its own request and reply shapes, with its default token limit', async () => {
    const fake = await toy();
    const target = await createTarget(
      'toy-agent',
      { model: { provider: 'toy', model: 'toy-1', baseURL: fake.origin } as unknown as ModelSpecInput, instructions: 'Echo the user.' },
      { rootDir: '.', configFile: 'evals.config.ts', env: {}, limiters: new ProviderLimiters() },
    );
    const run = await target.run(trialInput('hello toy'), never);
    expect(run.reply).toBe('echo: hello toy');
    expect(run.steps?.[0]).toMatchObject({ usage: { inputTokens: 11, outputTokens: 3 }, model: 'toy:toy-1-2026' });
    expect(fake.requests[0]!.body).toMatchObject({ name: 'toy-1', limit: 77, prompt: 'Echo the user.\nhello toy' });
  });

  it('answers a structured request (what a judge sends) and reads its usage off a recording fetch', async () => {
    const fake = await toy();
    const provider = createProvider('toy:toy-1', { TOY_BASE_URL: fake.origin }, { limiters: new ProviderLimiters() });
    const res = await provider.complete({ messages: [{ role: 'user', content: 'grade it' }], schema: { name: 'verdict', jsonSchema: { type: 'object' } } });
    expect(JSON.parse(res.text)).toEqual({ verdict: 'ok' });
    expect(fake.requests[0]!.body.json_schema).toEqual({ type: 'object' });

    const calls: RecordedCall[] = [];
    const recorder = { record: (c: RecordedCall) => calls.push(c), answered: () => undefined, track: (w: Promise<void>) => void w, begin: () => ({ done: () => undefined }) };
    let tracked: Promise<void> = Promise.resolve();
    const fetch = recordingFetch('toy' as never, { ...recorder, track: (w) => void (tracked = w) }, globalThis.fetch);
    await fetch(`${fake.origin}/toy/complete`, { method: 'POST', body: JSON.stringify({ name: 'toy-2', prompt: 'hi', limit: 5 }) });
    await tracked;
    expect(calls).toEqual([{ usage: { inputTokens: 11, outputTokens: 3 }, model: 'toy:toy-2-2026', toolCalls: [] }]);
  });

  it('is taken away again: the provider id is unknown once the test is done', async () => {
    const fake = await toy();
    undo.pop()!();
    expect(() => createProvider('toy:toy-1', { TOY_BASE_URL: fake.origin }, { limiters: new ProviderLimiters() })).toThrow(/provider one of/);
  });
});
