import { describe, expect, it } from 'vitest';
import { stepsFromSpans, type SpanRecord } from '../../src/adapters/otel-spans.js';

let clock = 0;
/** A span started after the previous one, ended `ms` later (open when `ms` is undefined). */
function span(spanId: string, name: string, attributes: Record<string, unknown>, more: Partial<SpanRecord> & { ms?: number } = { ms: 5 }): SpanRecord {
  const { ms, ...rest } = more;
  const startMs = (clock += 10);
  return { spanId, name, startMs, ...(ms !== undefined ? { endMs: startMs + ms } : {}), attributes, status: 'unset', ...rest };
}

describe('stepsFromSpans with GenAI semantic-convention spans', () => {
  it('maps chat spans to priced model calls and execute_tool spans to tool calls on the step before them', () => {
    const spans = [
      span('c1', 'chat gpt-4o', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.usage.cache_read.input_tokens': 100,
        'gen_ai.usage.cache_creation.input_tokens': 8,
        'gen_ai.usage.reasoning.output_tokens': 12,
      }),
      span(
        't1',
        'execute_tool search',
        { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.arguments': '{"q":"refund policy"}', 'gen_ai.tool.call.result': '["30 days"]' },
        { ms: 7 },
      ),
      span('t2', 'execute_tool fetch', { 'gen_ai.operation.name': 'execute_tool' }, { ms: 3, status: 'error', exceptionMessage: 'HTTP 503' }),
      span('c2', 'chat claude', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': 'claude-sonnet-4-5',
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 9,
      }),
    ];
    expect(stepsFromSpans(spans)).toEqual([
      {
        usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, cacheWriteTokens: 8, reasoningTokens: 12 },
        model: 'openai:gpt-4o-2024-08-06',
        toolCalls: [
          { name: 'search', args: { q: 'refund policy' }, result: ['30 days'], isError: false, durationMs: 7 },
          { name: 'fetch', result: 'HTTP 503', isError: true, durationMs: 3 },
        ],
      },
      { usage: { inputTokens: 200, outputTokens: 9 }, model: 'anthropic:claude-sonnet-4-5' },
    ]);
  });

  it('orders steps by start time, not by the order spans arrive in', () => {
    const a = span('a', 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 1 });
    const b = span('b', 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 2, 'gen_ai.usage.output_tokens': 2 });
    expect(stepsFromSpans([b, a]).map((s) => s.usage?.inputTokens)).toEqual([1, 2]);
  });
});

describe('stepsFromSpans with AI SDK spans', () => {
  it('reads doGenerate usage and model (provider cut at its first dot) and ai.toolCall args and results', () => {
    const steps = stepsFromSpans([
      span('g', 'ai.generateText', { 'ai.usage.inputTokens': 999, 'ai.usage.outputTokens': 999, 'ai.model.provider': 'openai.chat', 'ai.model.id': 'gpt-4.1-mini' }, { ms: 100 }),
      span(
        'd',
        'ai.streamText.doStream',
        {
          'ai.model.provider': 'openai.responses',
          'ai.model.id': 'gpt-4.1-mini',
          'ai.response.model': 'gpt-4.1-mini-2025-04-14',
          'ai.response.text': 'Looking it up.',
          'ai.usage.inputTokens': 50,
          'ai.usage.outputTokens': 7,
          'ai.usage.inputTokenDetails.cacheReadTokens': 32,
        },
        { ms: 5, parentSpanId: 'g' },
      ),
      span('t', 'ai.toolCall', { 'ai.toolCall.name': 'lookup', 'ai.toolCall.args': '{"id":7}', 'ai.toolCall.result': '{"ok":true}' }, { ms: 4, parentSpanId: 'g' }),
    ]);
    // The outer ai.generateText span holds totals, not a call: it is not counted.
    expect(steps).toEqual([
      {
        text: 'Looking it up.',
        usage: { inputTokens: 50, outputTokens: 7, cachedInputTokens: 32 },
        model: 'openai:gpt-4.1-mini-2025-04-14',
        toolCalls: [{ name: 'lookup', args: { id: 7 }, result: { ok: true }, isError: false, durationMs: 4 }],
      },
    ]);
  });

  it('counts a call instrumented twice once (the outer span), and keeps an error status message as the tool result', () => {
    const steps = stepsFromSpans([
      span('d', 'ai.generateText.doGenerate', { 'ai.model.provider': 'openai.chat', 'ai.model.id': 'm', 'ai.usage.promptTokens': 10, 'ai.usage.completionTokens': 2 }, { ms: 50 }),
      span(
        'inner',
        'chat m',
        { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'm', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 2 },
        { ms: 40, parentSpanId: 'd' },
      ),
      span('t', 'ai.toolCall', { 'ai.toolCall.name': 'pay', 'ai.toolCall.args': 'not json' }, { ms: 1, status: 'error', statusMessage: 'card declined', exceptionMessage: 'ignored' }),
      span('t-inner', 'execute_tool pay', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'pay' }, { ms: 1, parentSpanId: 't' }),
    ]);
    expect(steps).toEqual([{ usage: { inputTokens: 10, outputTokens: 2 }, model: 'openai:m', toolCalls: [{ name: 'pay', args: 'not json', result: 'card declined', isError: true, durationMs: 1 }] }]);
  });
});

describe('stepsFromSpans with unfinished or failed calls', () => {
  it('keeps a model call still open as sent with unknown usage, drops an open tool call and a failed call without usage', () => {
    const steps = stepsFromSpans([
      span('x', 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, { ms: 3, status: 'error', statusMessage: '429' }),
      span('t', 'ai.toolCall', { 'ai.toolCall.name': 'slow' }, {}),
      span('y', 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, {}),
    ]);
    expect(steps).toEqual([{ model: 'openai:gpt-4o', usageUnknown: true }]);
  });
});

describe('stepsFromSpans on a long chain of nested spans', () => {
  /** A chain: each span the child of the one before, each a tool call of its own name; `reads` counts the parent links read. */
  function chain(n: number): { spans: SpanRecord[]; reads: () => number } {
    let reads = 0;
    const spans = Array.from({ length: n }, (_, i) => {
      const s = span(`s${i}`, 'ai.toolCall', { 'ai.toolCall.name': `tool${i}` });
      const parent = i > 0 ? `s${i - 1}` : undefined;
      Object.defineProperty(s, 'parentSpanId', { enumerable: true, get: () => (reads++, parent) });
      return s;
    });
    return { spans, reads: () => reads };
  }

  it('reads each span’s parent link a bounded number of times (linear, not once per ancestor of every span)', () => {
    const n = 2_000;
    const { spans, reads } = chain(n);
    const steps = stepsFromSpans(spans);
    expect(steps.flatMap((s) => s.toolCalls ?? [])).toHaveLength(n);
    // Walking up from every span read n²/2 = 2,000,000 links here.
    expect(reads()).toBeLessThanOrEqual(2 * n);
  });

  it('imports a chain of 20,000 spans (no stack overflow: the walk keeps its own stack)', () => {
    const { spans } = chain(20_000);
    expect(stepsFromSpans(spans).flatMap((s) => s.toolCalls ?? [])).toHaveLength(20_000);
  });
});
