/**
 * `agent-evals import` of traces the real OpenTelemetry instrumentations of the `openai` client
 * write (issue 44, item 4): OpenLLMetry (`@traceloop/instrumentation-openai`, the OpenTelemetry GenAI
 * attributes since 0.27) and OpenInference (`@arizeai/openinference-instrumentation-openai`,
 * `llm.input_messages.*`) around a two-tool agent loop (test/support/refund-agent.ts) against the fake
 * OpenAI server, exported with the OpenTelemetry SDK as an OTLP JSON file. Neither records a tool
 * span, and with no span around the loop each model call is a trace of its own: the import reads the
 * tool calls from the model's messages and joins the calls of one conversation into one run. The
 * imported case then passes against the same agent. Both instrumentations patch the `openai` client
 * classes (their manual API, for ESM): the patch is undone after each test. Needs dist/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OpenAIInstrumentation as OpenInferenceInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { OpenAIInstrumentation as OpenLlmetryInstrumentation } from '@traceloop/instrumentation-openai';
import { load } from 'js-yaml';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { memoryTracing } from '../support/otlp-json-export.js';
import { REFUND_RESULTS, refundAgent, refundScript } from '../support/refund-agent.js';
import { toolCallsOf } from '../../src/core/agent-run.js';
import { readTraces } from '../../src/suite/read-traces.js';
import { writeProject } from '../support/temp-project.js';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script: refundScript });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const INPUT = 'Please refund order B2002, it arrived broken.';

/** The client classes' methods as they were, to put back what an instrumentation patched. */
function snapshotOpenAI(): () => void {
  const prototypes = [OpenAI.Chat.Completions.prototype, OpenAI.Completions.prototype, OpenAI.Embeddings.prototype, OpenAI.Responses.prototype, OpenAI.Images.prototype];
  const saved = prototypes.map((p) => [p, Object.getOwnPropertyDescriptors(p)] as const);
  return () => {
    for (const [p, descriptors] of saved) for (const [key, d] of Object.entries(descriptors)) Object.defineProperty(p, key, d);
  };
}

/** The agent's run traced by an instrumentation, as an OTLP JSON file's text. */
async function traced(instrument: (tracing: ReturnType<typeof memoryTracing>) => { disable(): void }): Promise<string> {
  const tracing = memoryTracing();
  const restore = snapshotOpenAI();
  const instrumentation = instrument(tracing);
  try {
    const run = await refundAgent(INPUT, fake.url);
    expect(run.reply).toBe('I refunded order B2002.');
  } finally {
    instrumentation.disable();
    restore();
  }
  await tracing.provider.forceFlush();
  return tracing.otlpJson();
}

const INSTRUMENTATIONS: Array<[string, (tracing: ReturnType<typeof memoryTracing>) => { disable(): void }]> = [
  [
    'OpenLLMetry (@traceloop/instrumentation-openai)',
    ({ provider }) => {
      const instrumentation = new OpenLlmetryInstrumentation();
      instrumentation.setTracerProvider(provider);
      instrumentation.manuallyInstrument(OpenAI);
      return instrumentation;
    },
  ],
  [
    'OpenInference (@arizeai/openinference-instrumentation-openai)',
    ({ provider }) => {
      const instrumentation = new OpenInferenceInstrumentation({ tracerProvider: provider });
      instrumentation.manuallyInstrument(OpenAI);
      return instrumentation;
    },
  ],
];

interface EvalFile {
  cases: Array<{ id: string; input: string; reference: string; assert: unknown[] }>;
}

describe.each(INSTRUMENTATIONS)('agent-evals import of a trace %s wrote', (_name, instrument) => {
  it('makes one case of the two-tool run (toolOrder of both tools, its input and reply) that passes against the same agent', async () => {
    const otlp = await traced(instrument);
    const agent = JSON.stringify(pathToFileURL(join(REPO_ROOT, 'test/support/refund-agent.ts')).href);
    const dir = writeProject({
      'evals.config.ts': `import { refundAgent } from ${agent};\nexport default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: (input: string) => refundAgent(input, ${JSON.stringify(fake.url)}) } };\n`,
      'traces.json': otlp,
    });
    // What `score` reads of the same export: one run, its tool calls read off the model's messages
    // with their arguments and the results the tool messages sent back, its usage per model call.
    const { traces } = await readTraces(['traces.json'], { cwd: dir });
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ input: INPUT, run: { reply: 'I refunded order B2002.', model: 'openai:gpt-4o-mini' } });
    expect(traces[0]!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(traces[0]!.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(toolCallsOf(traces[0]!.run)).toEqual([
      { name: 'orders_lookup', args: { id: 'B2002' }, result: REFUND_RESULTS['orders_lookup']!({ id: 'B2002' }) },
      { name: 'issue_refund', args: { id: 'B2002' }, result: REFUND_RESULTS['issue_refund']!({ id: 'B2002' }) },
    ]);
    expect(traces[0]!.run.steps!.map((step) => step.usage)).toEqual([
      { inputTokens: 40, outputTokens: 8 },
      { inputTokens: 60, outputTokens: 8 },
      { inputTokens: 80, outputTokens: 6 },
    ]);
    expect(traces[0]!.run.instructions).toBe('You are a support agent. Use the tools.');

    const imported = await runCliInProcess(['import', 'traces.json'], { cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('wrote evals/traces.eval.yaml: 1 case from 1 recorded run of traces.json');
    const file = load(readFileSync(join(dir, 'evals', 'traces.eval.yaml'), 'utf8')) as EvalFile;
    expect(file.cases.map(({ input, reference, assert }) => ({ input, reference, assert }))).toEqual([
      { input: INPUT, reference: 'I refunded order B2002.', assert: [{ type: 'toolOrder', tools: ['orders_lookup', 'issue_refund'] }] },
    ]);

    const run = await runCliInProcess(['run'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 passed/);

    // The same trace with the refund left out of the agent's answer fails the case: the import asserts the order.
    writeFileSync(
      join(dir, 'evals.config.ts'),
      readFileSync(join(dir, 'evals.config.ts'), 'utf8').replace(
        'refundAgent(input,',
        '(async (i: string, u: string) => { const r = await refundAgent(i, u); return { ...r, steps: r.steps?.slice(0, 1) }; })(input,',
      ),
    );
    const strayed = await runCliInProcess(['run'], { cwd: dir });
    expect(strayed.code).toBe(1);
  });
});
