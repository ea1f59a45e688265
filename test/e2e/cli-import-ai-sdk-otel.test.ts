/**
 * `agent-evals import` of the spans AI SDK 7 writes through `@ai-sdk/otel` (issue 44, item 4):
 * `registerTelemetry(new OpenTelemetry({ tracer }))` around a two-tool `generateText` agent
 * (test/support/ai-sdk-refund-agent.ts) against the fake OpenAI server, exported with the
 * OpenTelemetry SDK as an OTLP JSON file, imports to a case that passes against the same agent.
 * AI SDK 7 and `@ai-sdk/otel` are on the newest framework line only (lines/newest.json): run with
 * `npm run test:lines -- --node 22 test/e2e/cli-import-ai-sdk-otel.test.ts`; the root (AI SDK 6)
 * skips it. Needs dist/. Then `score` of such an export: AI SDK 7 has no `experimental_telemetry.metadata`;
 * what a run is tagged with is its runtime context (`ai.settings.context.<key>` on the spans), which a
 * scoring file's `where:` matches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tracer } from '@opentelemetry/api';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSdkRefundAgent } from '../support/ai-sdk-refund-agent.js';
import { REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { onNewestLine } from '../support/framework-line.js';
import { memoryTracing } from '../support/otlp-json-export.js';
import { refundScript } from '../support/refund-agent.js';
import { writeProject } from '../support/temp-project.js';

const INPUT = 'Please refund order B2002, it arrived broken.';

/** AI SDK 7's telemetry registration and `@ai-sdk/otel`, which the previous line (AI SDK 6) has not: imported by name at run time. */
interface AiSdkTelemetry {
  registerTelemetry: (...integrations: unknown[]) => void;
}
interface AiSdkOtel {
  OpenTelemetry: new (options: { tracer: Tracer; runtimeContext?: boolean }) => unknown;
}
const OTEL_PACKAGE = '@ai-sdk/otel';
const registry = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };

/** Runs `record` with `integration` registered (globally), putting back the integrations registered before. */
async function withTelemetry<T>(integration: unknown, record: () => Promise<T>): Promise<T> {
  const { registerTelemetry } = (await import('ai')) as unknown as AiSdkTelemetry;
  const before = registry.AI_SDK_TELEMETRY_INTEGRATIONS;
  registry.AI_SDK_TELEMETRY_INTEGRATIONS = [...(before ?? [])];
  try {
    registerTelemetry(integration);
    return await record();
  } finally {
    if (before) registry.AI_SDK_TELEMETRY_INTEGRATIONS = before;
    else delete registry.AI_SDK_TELEMETRY_INTEGRATIONS;
  }
}

describe.runIf(onNewestLine)('agent-evals import of an AI SDK 7 trace (@ai-sdk/otel)', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ script: refundScript });
  });
  afterAll(async () => {
    await fake.close();
    removeTempDirs();
  });

  it('makes one case of the two-tool run (toolOrder of both tools, its input and reply) that passes against the same agent', async () => {
    const { OpenTelemetry } = (await import(OTEL_PACKAGE)) as AiSdkOtel;
    const tracing = memoryTracing();
    const recorded = await withTelemetry(new OpenTelemetry({ tracer: tracing.provider.getTracer('agent') }), () => aiSdkRefundAgent(INPUT, fake.url));
    expect(recorded.reply).toBe('I refunded order B2002.');
    await tracing.provider.forceFlush();

    const agent = JSON.stringify(pathToFileURL(join(REPO_ROOT, 'test/support/ai-sdk-refund-agent.ts')).href);
    const dir = writeProject({
      'evals.config.ts': `import { aiSdkRefundAgent } from ${agent};\nexport default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: (input: string) => aiSdkRefundAgent(input, ${JSON.stringify(fake.url)}) } };\n`,
      'traces.json': tracing.otlpJson(),
    });
    const imported = await runCliInProcess(['import', 'traces.json'], { cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('wrote evals/traces.eval.yaml: 1 case from 1 recorded run of traces.json');
    const file = load(readFileSync(join(dir, 'evals', 'traces.eval.yaml'), 'utf8')) as { cases: Array<{ input: string; reference: string; assert: unknown[] }> };
    expect(file.cases.map(({ input, reference, assert }) => ({ input, reference, assert }))).toEqual([
      { input: INPUT, reference: 'I refunded order B2002.', assert: [{ type: 'toolOrder', tools: ['orders_lookup', 'issue_refund'] }] },
    ]);

    const run = await runCliInProcess(['run'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 passed/);
  });

  it("score: a scoring file's where matches the runtime context a run was tagged with (ai.settings.context.<key>)", async () => {
    const { OpenTelemetry } = (await import(OTEL_PACKAGE)) as AiSdkOtel;
    const tracing = memoryTracing();
    // As an app on AI SDK 7 tags its runs: the integration emits the runtime context, each call says which keys.
    await withTelemetry(new OpenTelemetry({ tracer: tracing.provider.getTracer('agent'), runtimeContext: true }), async () => {
      for (const route of ['refunds', 'orders']) {
        await aiSdkRefundAgent(INPUT, fake.url, { runtimeContext: { route, tier: { level: 2 } }, telemetry: { functionId: 'support', includeRuntimeContext: { route: true, tier: true } } });
      }
    });
    await tracing.provider.forceFlush();
    const dir = writeProject({
      'evals.config.ts': `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: () => 'unused' } };\n`,
      'evals/refunds.score.yaml': 'name: refunds\nwhere: { route: refunds, tier.level: 2 }\nassert:\n  - { type: calledTool, tool: issue_refund }\n',
      'traces.json': tracing.otlpJson(),
    });
    const scored = await runCliInProcess(['score', 'traces.json'], { cwd: dir });
    expect(scored.code, scored.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, '.out', 'scored.json'), 'utf8')) as { run: { scoredFrom: { traces: number; unmatched: number } }; cases: unknown[] };
    expect(results.run.scoredFrom).toMatchObject({ traces: 2, unmatched: 1 });
    expect(results.cases).toHaveLength(1);
  });
});
