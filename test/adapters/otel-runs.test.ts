import { describe, expect, it } from 'vitest';
import { spansFromOtlpJson } from '../../src/adapters/otlp-json.js';
import { runsFromSpans } from '../../src/adapters/otel-runs.js';

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
    expect(runsFromSpans(spans)).toEqual({ runs: [{ input: 'hello', reply: 'hi there', calls: ['greet'], tools: [] }], skipped: 0 });
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
    expect(runsFromSpans(spans)).toEqual({ runs: [{ input: 'Where is A1?', reply: 'A1 shipped.', calls: ['lookup'], tools: ['lookup', 'refund'] }], skipped: 0 });
  });

  it('counts a run whose trace holds no input as skipped', () => {
    const spans = spansFromOtlpJson(doc(span('t', 'c', 'chat', 0, [str('gen_ai.operation.name', 'chat'), int('gen_ai.usage.input_tokens', 1)])))!;
    expect(runsFromSpans(spans)).toEqual({ runs: [], skipped: 1 });
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
