/**
 * readTraces over an OTLP JSON export of 20 runs the AI SDK recorded (through the real OpenTelemetry
 * SDK) against the fake OpenAI server (test/support/recorded-otlp.ts): each run is one trace with its
 * trace id, start, input, reply, tool calls (arguments, results, the failed refund), usage per model
 * call and the metadata its telemetry and resource carry; the same export one document per line reads
 * the same; a seeded sample is the same whatever the order of the documents.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCallsOf } from '../../src/core/agent-run.js';
import { RecordedTraceSchema } from '../../src/core/recorded-trace.js';
import { readTraces } from '../../src/suite/read-traces.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { RECORDED_AGENT, RECORDED_RUNS, RECORDED_SERVICE, recordedRun, writeRecordedOtlp } from '../support/recorded-otlp.js';

let dir: string;
let traceOfRun: Map<number, string>;
beforeAll(async () => {
  dir = tempDir('agent-evals-traces-');
  traceOfRun = await writeRecordedOtlp(join(dir, 'prod.json'));
});
afterAll(() => removeTempDirs());

const runs = Array.from({ length: RECORDED_RUNS }, (_, i) => i + 1);

/** The export with each trace a document of its own on a line, the traces in `order` (by run). */
function perLine(order: readonly number[]): string {
  const doc = JSON.parse(readFileSync(join(dir, 'prod.json'), 'utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: string }> }> }> };
  return order
    .map((k) =>
      JSON.stringify({
        resourceSpans: doc.resourceSpans.map((rs) => ({ ...rs, scopeSpans: rs.scopeSpans.map((ss) => ({ ...ss, spans: ss.spans.filter((s) => s.traceId === traceOfRun.get(k)) })) })),
      }),
    )
    .join('\n');
}

describe('readTraces of an AI SDK OTLP export of 20 recorded runs', () => {
  it('gives one trace per run: its trace id and start, input and reply, tool calls with arguments and results, usage and model per call, metadata', async () => {
    const { traces, files, notes } = await readTraces(['prod.json'], { cwd: dir });
    expect(files).toEqual(['prod.json']);
    expect(notes).toEqual([]);
    expect(traces).toHaveLength(RECORDED_RUNS);
    expect(new Set(traces.map((t) => t.id)).size).toBe(RECORDED_RUNS);
    expect(new Set(traces.map((t) => t.startedAt)).size).toBe(RECORDED_RUNS);
    for (const k of runs) {
      const want = recordedRun(k);
      const trace = traces.find((t) => t.id === traceOfRun.get(k))!;
      expect(trace, `run ${k}`).toBeDefined();
      expect(trace.startedAt).toBe(want.startedAt);
      expect(trace.input).toBe(want.input);
      expect(trace.source).toBe(`prod.json#${trace.id}`);
      expect(trace.run.reply).toBe(want.reply);
      expect(toolCallsOf(trace.run).map(({ name, args, result, isError }) => ({ name, args, result, isError }))).toEqual(want.toolCalls);
      expect(trace.run.steps!.filter((s) => s.usage).map((s) => s.usage)).toEqual(want.calls);
      expect(trace.run.steps!.every((s) => s.model === want.model)).toBe(true);
      expect(trace.run.model).toBe(want.model);
      expect(trace.metadata).toMatchObject({ ...want.metadata, agent: RECORDED_AGENT, 'service.name': RECORDED_SERVICE });
    }
    for (const t of traces) expect(RecordedTraceSchema.safeParse(t).success, t.id).toBe(true);
    // In the order they ran.
    expect(traces.map((t) => t.id)).toEqual(runs.map((k) => traceOfRun.get(k)));
  });

  it('reads the same export written one document per line', async () => {
    writeFileSync(join(dir, 'lines.ndjson'), perLine(runs));
    const whole = await readTraces(['prod.json'], { cwd: dir });
    const lines = await readTraces(['lines.ndjson'], { cwd: dir });
    expect(lines.traces.map(({ source: _, ...t }) => t)).toEqual(whole.traces.map(({ source: _, ...t }) => t));
  });

  it('samples the same 5 runs for --sample 5 --seed 1 every time and whatever the order of the traces in the file; another seed, others', async () => {
    writeFileSync(join(dir, 'reversed.ndjson'), perLine([...runs].reverse()));
    const pick = { cwd: dir, sample: 5, seed: 1 };
    const first = await readTraces(['prod.json'], pick);
    const again = await readTraces(['prod.json'], pick);
    const reversed = await readTraces(['reversed.ndjson'], pick);
    const ids = (r: typeof first) => r.traces.map((t) => t.id).sort();
    expect(first.traces).toHaveLength(5);
    expect(ids(again)).toEqual(ids(first));
    expect(ids(reversed)).toEqual(ids(first));
    expect(first.notes).toEqual(['15 traces not scored: left out by --sample 5 (--seed 1 picks which)']);
    const other = await readTraces(['prod.json'], { ...pick, seed: 2 });
    expect(ids(other)).not.toEqual(ids(first));
  });

  it('keeps the runs that started in [--since, --until)', async () => {
    const { traces, notes } = await readTraces(['prod.json'], { cwd: dir, since: new Date(recordedRun(5).startedAt), until: new Date(recordedRun(9).startedAt) });
    expect(traces.map((t) => t.id)).toEqual([5, 6, 7, 8].map((k) => traceOfRun.get(k)));
    expect(notes).toEqual([
      `4 traces not scored: started before --since ${new Date(recordedRun(5).startedAt).toISOString()}`,
      `12 traces not scored: started at or after --until ${new Date(recordedRun(9).startedAt).toISOString()}`,
    ]);
  });
});
