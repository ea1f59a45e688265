import { describe, expect, it } from 'vitest';
import { spansFromOtlpJson } from '../../src/adapters/otlp-json.js';
import type { ExportedSpan } from '../../src/adapters/otlp-json.js';
import { spanRuns } from '../../src/adapters/otel-runs.js';
import { toolCallsOf } from '../../src/core/agent-run.js';

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });
const span = (traceId: string, spanId: string, name: string, startMs: number, attributes: unknown[], more: Record<string, unknown> = {}) => ({
  traceId,
  spanId,
  name,
  startTimeUnixNano: String(BigInt(startMs) * 1_000_000n + 1_764_655_200_000_000_000n),
  endTimeUnixNano: String(BigInt(startMs + 5) * 1_000_000n + 1_764_655_200_000_000_000n),
  attributes,
  ...more,
});
const doc = (...spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
/** The runs as `import` keeps them: input, reply, the tools called and the tools given. */
function runsFromSpans(spans: readonly ExportedSpan[]) {
  const read = spanRuns(spans);
  return { ...read, runs: read.runs.map(({ input, reply, calls, tools }) => ({ input, reply, calls, tools })) };
}

describe('spansFromOtlpJson', () => {
  it('is undefined for what is not an OTLP trace export', () => {
    expect(spansFromOtlpJson({ spans: [] })).toBeUndefined();
    expect(spansFromOtlpJson([])).toBeUndefined();
    expect(spansFromOtlpJson('x')).toBeUndefined();
  });

  it('reads structured attribute values (arrays, key-value lists), status codes by number or name, and one document per line', () => {
    const messages = {
      key: 'gen_ai.input.messages',
      value: {
        arrayValue: {
          values: [
            { kvlistValue: { values: [str('role', 'user'), { key: 'parts', value: { arrayValue: { values: [{ kvlistValue: { values: [str('type', 'text'), str('content', 'hello')] } }] } } }] } },
          ],
        },
      },
    };
    const lines = [
      doc(
        span(
          't1',
          'a',
          'invoke_agent',
          0,
          [str('gen_ai.operation.name', 'invoke_agent'), messages, str('gen_ai.output.messages', '[{"role":"assistant","parts":[{"type":"text","content":"hi there"}]}]')],
          { status: { code: 'STATUS_CODE_OK' } },
        ),
      ),
      doc(span('t1', 'x', 'execute_tool greet', 2, [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', 'greet')], { parentSpanId: 'a', status: { code: 2, message: 'down' } })),
    ];
    const spans = spansFromOtlpJson(lines)!;
    expect(spans.map((s) => [s.traceId, s.spanId, s.status, s.endMs! - s.startMs])).toEqual([
      ['t1', 'a', 'ok', 5],
      ['t1', 'x', 'error', 5],
    ]);
    expect(spans[0]!.attributes['gen_ai.input.messages']).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'hello' }] }]);
    expect(runsFromSpans(spans)).toEqual({ runs: [{ input: 'hello', reply: 'hi there', calls: ['greet'], tools: [] }], skipped: 0, unknown: false });
  });
});

describe('runsFromSpans', () => {
  it('reads an AI SDK trace with no invoke_agent span as one run: ai.prompt, the outer ai.response.text, ai.prompt.tools', () => {
    const spans = spansFromOtlpJson(
      doc(
        span('t', 'g', 'ai.generateText', 0, [str('ai.prompt', '{"prompt":"Where is A1?"}'), str('ai.response.text', 'A1 shipped.')], {}),
        span(
          't',
          'd',
          'ai.generateText.doGenerate',
          1,
          [
            str('ai.model.provider', 'openai.chat'),
            str('ai.model.id', 'gpt-4.1-mini'),
            int('ai.usage.inputTokens', 10),
            int('ai.usage.outputTokens', 2),
            { key: 'ai.prompt.tools', value: { arrayValue: { values: [{ stringValue: '{"type":"function","name":"lookup"}' }, { stringValue: '{"type":"function","name":"refund"}' }] } } },
          ],
          { parentSpanId: 'g' },
        ),
        span('t', 'c', 'ai.toolCall', 2, [str('ai.toolCall.name', 'lookup'), str('ai.toolCall.args', '{"id":"A1"}')], { parentSpanId: 'g' }),
      ),
    )!;
    expect(runsFromSpans(spans)).toEqual({ runs: [{ input: 'Where is A1?', reply: 'A1 shipped.', calls: ['lookup'], tools: ['lookup', 'refund'] }], skipped: 0, unknown: false });
  });

  it('counts a run whose trace holds no input as skipped', () => {
    const spans = spansFromOtlpJson(doc(span('t', 'c', 'chat', 0, [str('gen_ai.operation.name', 'chat'), int('gen_ai.usage.input_tokens', 1)])))!;
    expect(runsFromSpans(spans)).toEqual({ runs: [], skipped: 1, unknown: false });
  });
});

describe('runsFromSpans on a long chain of nested spans', () => {
  it('reads each span’s parent link a bounded number of times (each span’s outermost agent span memoised, not walked up again)', () => {
    const n = 2_000;
    let reads = 0;
    const spans = Array.from({ length: n }, (_, i) => {
      const s = spansFromOtlpJson(doc(span('t', `s${i}`, i === 0 ? 'invoke_agent' : 'step', i, [...(i === 0 ? [str('gen_ai.operation.name', 'invoke_agent')] : [])])))![0]!;
      const parent = i > 0 ? `s${i - 1}` : undefined;
      Object.defineProperty(s, 'parentSpanId', { enumerable: true, get: () => (reads++, parent) });
      return s;
    });
    const { runs, skipped } = runsFromSpans(spans);
    expect(runs.length + skipped).toBe(1);
    // Walking up from every span read n²/2 = 2,000,000 links here.
    expect(reads).toBeLessThanOrEqual(4 * n);
  });
});

/** GenAI `chat` span attributes: its input and output messages as JSON text. */
const chat = (input: unknown[], output: unknown[], more: unknown[] = []) => [
  str('gen_ai.operation.name', 'chat'),
  str('gen_ai.input.messages', JSON.stringify(input)),
  str('gen_ai.output.messages', JSON.stringify(output)),
  ...more,
];
const user = (text: string) => ({ role: 'user', parts: [{ type: 'text', content: text }] });
const says = (text: string) => ({ role: 'assistant', parts: [{ type: 'text', content: text }] });
const asks = (id: string, name: string) => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name, arguments: { id: 'A1' } }] });
const answered = (id: string) => ({ role: 'tool', parts: [{ type: 'tool_call_response', id, response: 'ok' }] });

describe('runsFromSpans on model-call spans with no agent span', () => {
  it('makes one run of a trace of model calls under one parent, its tool calls read from their output messages (OpenInference)', () => {
    const oi = (extra: unknown[]) => [str('openinference.span.kind', 'LLM'), str('llm.input_messages.0.message.role', 'user'), str('llm.input_messages.0.message.content', 'Refund A1'), ...extra];
    const call = (n: number, name: string) => [
      str('llm.output_messages.0.message.role', 'assistant'),
      str(`llm.output_messages.0.message.tool_calls.0.tool_call.id`, `c${n}`),
      str(`llm.output_messages.0.message.tool_calls.0.tool_call.function.name`, name),
    ];
    const tools = [str('llm.tools.0.tool.json_schema', '{"type":"function","function":{"name":"lookup"}}'), str('llm.tools.1.tool.json_schema', '{"type":"function","function":{"name":"refund"}}')];
    const spans = spansFromOtlpJson(
      doc(
        span('t', 'p', 'POST /support', 0, []),
        span('t', 'a', 'OpenAI Chat Completions', 1, oi([...call(1, 'lookup'), ...tools]), { parentSpanId: 'p' }),
        span('t', 'b', 'OpenAI Chat Completions', 10, oi([...call(2, 'refund'), ...tools]), { parentSpanId: 'p' }),
        span('t', 'c', 'OpenAI Chat Completions', 20, oi([str('llm.output_messages.0.message.role', 'assistant'), str('llm.output_messages.0.message.content', 'Refunded A1.'), ...tools]), {
          parentSpanId: 'p',
        }),
      ),
    )!;
    expect(runsFromSpans(spans)).toEqual({ runs: [{ input: 'Refund A1', reply: 'Refunded A1.', calls: ['lookup', 'refund'], tools: ['lookup', 'refund'] }], skipped: 0, unknown: false });
  });

  it('joins model calls each in a trace of its own when one continues the conversation of the one before, which asked for tools', () => {
    const spans = spansFromOtlpJson(
      doc(
        span('t1', 'a', 'chat m', 0, chat([user('Refund A1')], [asks('c1', 'lookup')])),
        span('t2', 'b', 'chat m', 10, chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1')], [asks('c2', 'refund')])),
        span('t3', 'c', 'chat m', 20, chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1'), asks('c2', 'refund'), answered('c2')], [says('Refunded A1.')])),
        // A next user message after a reply is a run of its own, though it sends the conversation before it.
        span(
          't4',
          'd',
          'chat m',
          30,
          chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1'), asks('c2', 'refund'), answered('c2'), says('Refunded A1.'), user('Thanks!')], [says('You are welcome.')]),
        ),
        // Another conversation: not joined.
        span('t5', 'e', 'chat m', 40, chat([user('Where is B2?')], [asks('c9', 'lookup')])),
      ),
    )!;
    expect(runsFromSpans(spans)).toEqual({
      runs: [
        { input: 'Refund A1', reply: 'Refunded A1.', calls: ['lookup', 'refund'], tools: [] },
        { input: 'Thanks!', reply: 'You are welcome.', calls: [], tools: [] },
      ],
      skipped: 1,
      unknown: false,
    });
  });

  it('reads the tool calls of a run whose earlier model calls are missing from the last call’s input messages', () => {
    const spans = spansFromOtlpJson(doc(span('t', 'c', 'chat m', 20, chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1'), asks('c2', 'refund'), answered('c2')], [says('Refunded A1.')]))))!;
    expect(runsFromSpans(spans).runs).toEqual([{ input: 'Refund A1', reply: 'Refunded A1.', calls: ['lookup', 'refund'], tools: [] }]);
  });

  it('groups traces by conversation id (gen_ai.conversation.id, OpenInference session.id), one run per user message', () => {
    const conversation = (id: string) => str('gen_ai.conversation.id', id);
    const spans = spansFromOtlpJson(
      doc(
        span('t1', 'a', 'chat m', 0, chat([user('Refund A1')], [asks('c1', 'lookup')], [conversation('k1')])),
        // Its input was not recorded: only the conversation id ties it to the call before.
        span('t2', 'b', 'chat m', 10, [str('gen_ai.operation.name', 'chat'), str('gen_ai.output.messages', JSON.stringify([says('Refunded A1.')])), conversation('k1')]),
        span('t3', 'c', 'OpenAI Chat Completions', 20, [
          str('openinference.span.kind', 'LLM'),
          str('session.id', 's2'),
          str('llm.input_messages.0.message.role', 'user'),
          str('llm.input_messages.0.message.content', 'Hi'),
          str('llm.output_messages.0.message.role', 'assistant'),
          str('llm.output_messages.0.message.content', 'Hello.'),
        ]),
        span('t4', 'd', 'OpenAI Chat Completions', 30, [
          str('openinference.span.kind', 'LLM'),
          str('session.id', 's2'),
          str('llm.input_messages.0.message.role', 'user'),
          str('llm.input_messages.0.message.content', 'Where is B2?'),
          str('llm.output_messages.0.message.role', 'assistant'),
          str('llm.output_messages.0.message.content', 'On its way.'),
        ]),
      ),
    )!;
    expect(runsFromSpans(spans).runs).toEqual([
      { input: 'Refund A1', reply: 'Refunded A1.', calls: ['lookup'], tools: [] },
      { input: 'Hi', reply: 'Hello.', calls: [], tools: [] },
      { input: 'Where is B2?', reply: 'On its way.', calls: [], tools: [] },
    ]);
  });

  it('says when no span is in a convention it reads', () => {
    const spans = spansFromOtlpJson(doc(span('t', 'a', 'GET /health', 0, [str('http.method', 'GET')])))!;
    expect(runsFromSpans(spans)).toEqual({ runs: [], skipped: 1, unknown: true });
  });
});

describe('spanRuns: what score reads of each run', () => {
  it('gives each run of a trace its own id, its start, its tool calls with arguments, results and errors, and the agent name and resource as metadata', () => {
    const agent = (id: string, start: number, input: string, reply: string) =>
      span('t', id, 'invoke_agent support', start, [
        str('gen_ai.operation.name', 'invoke_agent'),
        str('gen_ai.agent.name', 'support'),
        str('gen_ai.input.messages', JSON.stringify([user(input)])),
        str('gen_ai.output.messages', JSON.stringify([says(reply)])),
      ]);
    const tool = (id: string, parent: string, start: number, name: string, more: Record<string, unknown> = {}) =>
      span(
        't',
        id,
        `execute_tool ${name}`,
        start,
        [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', name), str('gen_ai.tool.call.arguments', '{"id":"A1"}'), str('gen_ai.tool.call.result', '{"ok":true}')],
        {
          parentSpanId: parent,
          ...more,
        },
      );
    const data = {
      resourceSpans: [
        {
          resource: { attributes: [str('service.name', 'shop'), str('deployment.environment', 'prod')] },
          scopeSpans: [
            { spans: [agent('a', 0, 'Refund A1', 'Done.'), tool('x', 'a', 1, 'lookup'), tool('y', 'a', 2, 'refund', { status: { code: 2, message: 'closed' } }), agent('b', 100, 'Hi', 'Hello.')] },
          ],
        },
      ],
    };
    const { runs } = spanRuns(spansFromOtlpJson(data)!);
    expect(runs.map((r) => r.id)).toEqual(['t-1', 't-2']);
    expect(runs[0]!.startMs).toBe(1_764_655_200_000);
    expect(new Date(runs[1]!.startMs!).toISOString()).toBe('2025-12-02T06:00:00.100Z');
    expect(toolCallsOf(runs[0]!.run).map(({ durationMs: _, ...c }) => c)).toEqual([
      { name: 'lookup', args: { id: 'A1' }, result: { ok: true }, isError: false },
      { name: 'refund', args: { id: 'A1' }, result: 'closed', isError: true },
    ]);
    expect(runs[0]!.metadata).toEqual({ agent: 'support', 'service.name': 'shop', 'deployment.environment': 'prod' });
    expect(runs[1]).toMatchObject({ input: 'Hi', reply: 'Hello.', run: { reply: 'Hello.' } });
  });

  it("reads OpenInference's metadata, tags, session and user ids, a user's key over the resource's, a `__proto__` key as data", () => {
    const spans = spansFromOtlpJson({
      resourceSpans: [
        {
          resource: { attributes: [str('service.name', 'shop'), str('route', 'from-resource')] },
          scopeSpans: [
            {
              spans: [
                span('t', 'c', 'OpenAI Chat Completions', 0, [
                  str('openinference.span.kind', 'LLM'),
                  str('llm.input_messages.0.message.role', 'user'),
                  str('llm.input_messages.0.message.content', 'Hi'),
                  str('llm.output_messages.0.message.role', 'assistant'),
                  str('llm.output_messages.0.message.content', 'Hello.'),
                  str('metadata', '{"route":"greetings","__proto__":{"polluted":true}}'),
                  { key: 'tag.tags', value: { arrayValue: { values: [{ stringValue: 'beta' }] } } },
                  str('session.id', 's1'),
                  str('user.id', 'u1'),
                  int('llm.token_count.prompt', 12),
                  int('llm.token_count.completion', 3),
                ]),
              ],
            },
          ],
        },
      ],
    })!;
    const [run] = spanRuns(spans).runs;
    expect(run!.metadata).toMatchObject({ route: 'greetings', tags: ['beta'], 'session.id': 's1', 'user.id': 'u1', 'service.name': 'shop' });
    expect(Object.getOwnPropertyDescriptor(run!.metadata, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(run!.metadata)).toBe(Object.prototype);
    expect(run!.run.steps).toEqual([{ usage: { inputTokens: 12, outputTokens: 3 } }]);
  });

  it("reads OpenLLMetry's association properties and workflow name", () => {
    const spans = spansFromOtlpJson(
      doc(
        span('t', 'c', 'openai.chat', 0, [
          str('llm.request.type', 'chat'),
          str('gen_ai.prompt.0.role', 'user'),
          str('gen_ai.prompt.0.content', 'Hi'),
          str('gen_ai.completion.0.role', 'assistant'),
          str('gen_ai.completion.0.content', 'Hello.'),
          str('traceloop.association.properties.tier', 'gold'),
          str('traceloop.workflow.name', 'greeter'),
        ]),
      ),
    )!;
    expect(spanRuns(spans).runs[0]!.metadata).toEqual({ tier: 'gold', agent: 'greeter' });
  });

  it('gives a later turn of a conversation the messages before it, and tool calls read off messages their arguments and results', () => {
    const spans = spansFromOtlpJson(
      doc(
        span('t1', 'a', 'chat m', 0, chat([user('Refund A1')], [asks('c1', 'lookup')])),
        span('t2', 'b', 'chat m', 10, chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1')], [says('Refunded A1.')])),
        span('t3', 'c', 'chat m', 20, chat([user('Refund A1'), asks('c1', 'lookup'), answered('c1'), says('Refunded A1.'), user('Thanks!')], [says('You are welcome.')])),
      ),
    )!;
    const [first, second] = spanRuns(spans).runs;
    expect(first!.messages).toBeUndefined();
    expect(toolCallsOf(first!.run)).toEqual([{ name: 'lookup', args: { id: 'A1' }, result: 'ok' }]);
    expect(second!.messages).toEqual([
      { role: 'user', content: 'Refund A1' },
      { role: 'assistant', content: 'Refunded A1.' },
      { role: 'user', content: 'Thanks!' },
    ]);
    expect(second!.id).toBe('t3');
  });

  it('orders tool spans that started in the same millisecond as the model asked for them, not as the export listed them (by end)', () => {
    const call = (id: string, name: string) => ({ toolCallId: id, toolName: name, input: '{}' });
    const toolSpan = (spanId: string, id: string, name: string) => span('t', spanId, 'ai.toolCall', 5, [str('ai.toolCall.name', name), str('ai.toolCall.id', id)], { parentSpanId: 'g' });
    const spans = spansFromOtlpJson(
      doc(
        span('t', 'g', 'ai.generateText', 0, [str('ai.prompt', '{"prompt":"Refund A1"}'), str('ai.response.text', 'Done.')]),
        span('t', 'd', 'ai.generateText.doGenerate', 1, [str('ai.response.toolCalls', JSON.stringify([call('k1', 'lookup'), call('k2', 'refund')])), int('ai.usage.inputTokens', 5)], {
          parentSpanId: 'g',
        }),
        toolSpan('r', 'k2', 'refund'),
        toolSpan('l', 'k1', 'lookup'),
      ),
    )!;
    expect(spanRuns(spans).runs[0]!.calls).toEqual(['lookup', 'refund']);
  });
});
