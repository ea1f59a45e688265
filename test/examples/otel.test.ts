/**
 * examples/frameworks/otel: the AI SDK support agent with telemetry on, declared `otel: true`, run
 * in-process against the fake OpenAI server. Its tool calls, errors and usage come from its spans.
 * `trace: 'full'`: the tool calls are read back from the results, which digest them under `safe`.
 * The example is written for ai 7 + @ai-sdk/openai 4 + @ai-sdk/otel 1 (what docs/guide/targets.md
 * names): it runs on the newest line; the previous line (ai 6) skips it.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { context, propagation, trace } from '@opentelemetry/api';
import type { UserConfig } from '../../src/config/define-config.js';
import { onNewestLine } from '../support/framework-line.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

const exampleDir = fileURLToPath(new URL('../../examples/frameworks/otel/', import.meta.url));
// Imported only on the newest line (a variable: the previous line's type check does not follow it).
const CONFIG = '../../examples/frameworks/otel/evals.config.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  vi.unstubAllEnvs();
  trace.disable();
  context.disable();
  propagation.disable();
});
afterAll(removeTempDirs);

/** A model that looks the order up, tries the refund, then reports what the refund tool said. */
function script(body: any): Scripted {
  const orderId = /A\d{4}/.exec(String(body.messages.find((m: any) => m.role === 'user').content))![0];
  const results = body.messages.filter((m: any) => m.role === 'tool');
  if (results.length === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId } }], usage: { input: 300, output: 20, cached: 256 } };
  if (results.length === 1) return { toolCalls: [{ name: 'refunds_issue', args: { orderId } }], usage: { input: 400, output: 20, cached: 256 } };
  return { text: `Refund of ${orderId}: ${String(results[1].content)}`, usage: { input: 500, output: 40 } };
}

describe.runIf(onNewestLine)('the otel example (ai 7 + @ai-sdk/otel; skipped on the ai 6 line)', () => {
  it('the AI SDK example agent passes its trajectory assertions, with the refused refund as a tool error and usage as served', async () => {
    const config = ((await import(CONFIG)) as { default: UserConfig }).default;
    const before = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] }).AI_SDK_TELEMETRY_INTEGRATIONS;
    fake = await startFakeOpenAI({ script });
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-example-000000');
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    const { results, exitCode, warnings } = await runInProcess({ dir: exampleDir, config: { ...config, trace: 'full', outputDir: tempDir('agent-evals-otel-example-') } });

    expect(warnings).toEqual([]);
    expect(results.cases.map((c) => [c.id, c.trials[0]!.assertions.map((a) => `${a.kind}:${a.status}`)])).toEqual([
      ['refund-eligible', ['calledTool:passed', 'toolOrder:passed', 'noToolErrors:passed']],
      ['refund-refused', ['calledTool:passed', 'notCalledTool:passed', 'contains:passed']],
    ]);
    expect(exitCode).toBe(0);
    const refused = results.cases[1]!.trials[0]!;
    expect(refused.trace.steps!.flatMap((s) => s.toolCalls ?? []).map(({ name, isError, result }) => ({ name, isError, result }))).toEqual([
      { name: 'orders_lookup', isError: false, result: { orderId: 'A1050', status: 'delivered 45 days ago', total: 19, refundable: false } },
      { name: 'refunds_issue', isError: true, result: 'order A1050 is past the 30-day refund window' },
    ]);
    for (const c of results.cases) {
      const usage = c.trials[0]!.usage.target;
      expect(usage).toMatchObject({ calls: 3, inputTokens: 1200, outputTokens: 80, cachedInputTokens: 512 });
      // Priced as the example's model, gpt-5.4-mini: $0.75 / M input, $0.075 / M cached input, $4.50 / M output.
      expect(usage.costUsd).toBeCloseTo(((1200 - 512) * 0.75 + 512 * 0.075 + 80 * 4.5) / 1e6, 12);
    }
    // The integration agent-evals registered for the run is gone with it.
    expect((globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] }).AI_SDK_TELEMETRY_INTEGRATIONS).toEqual(before);
  });
});
