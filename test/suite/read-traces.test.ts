/**
 * readTraces: the recorded runs `agent-evals score` grades, from JSONL trace lines, results files and
 * OTLP exports, files or folders; a seeded sample, a time window, repeated ids; and each bad input a
 * UserError naming the file and what was expected. (The AI SDK export of 20 runs: read-traces-otlp.test.ts.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCallsOf } from '../../src/core/agent-run.js';
import { UserError } from '../../src/core/errors.js';
import { RecordedTraceSchema } from '../../src/core/recorded-trace.js';
import type { Results } from '../../src/core/results-schema.js';
import { readTraces } from '../../src/suite/read-traces.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(() => removeTempDirs());

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const hour = (h: number) => new Date(Date.UTC(2026, 10, 30, h)).toISOString();
/** `n` trace lines `<prefix>-<i>`, run i started at hour i. */
const lines = (prefix: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => line({ id: `${prefix}-${from + i}`, startedAt: hour(from + i), input: `q${from + i}`, reply: `a${from + i}` })).join('\n');

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const otlp = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [attr('service.name', 'shop')] }, scopeSpans: [{ spans }] }] });
const nanos = (h: number) => String(BigInt(Date.UTC(2026, 10, 30, h)) * 1_000_000n);
/** An OpenTelemetry GenAI agent span holding its input and output messages. */
const agentSpan = (traceId: string, h: number, input: string, reply: string) => ({
  traceId,
  spanId: `${traceId}-a`,
  name: 'invoke_agent shop',
  startTimeUnixNano: nanos(h),
  endTimeUnixNano: nanos(h + 1),
  attributes: [
    attr('gen_ai.operation.name', 'invoke_agent'),
    attr('gen_ai.agent.name', 'shop-bot'),
    attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: input }] }])),
    attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: reply }] }])),
  ],
});

function project(files: Record<string, string>): string {
  const dir = tempDir('agent-evals-read-traces-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The UserError readTraces throws, as its message. */
async function refused(paths: string[], cwd: string): Promise<string> {
  const err: unknown = await readTraces(paths, { cwd }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return (err as UserError).message;
}

describe('readTraces of a results file', () => {
  let dir: string;
  let results: Results;
  beforeAll(async () => {
    const agent: TargetFunction = (input) => {
      if (input === 'crash') throw new Error('the agent crashed');
      return { reply: `Looked ${input} up.`, steps: [{ toolCalls: [{ name: 'lookup', args: { q: input }, result: 'found' }], usage: { inputTokens: 10, outputTokens: 2 } }] };
    };
    const run = await runInProcess({
      files: {
        'evals/shop.eval.yaml': [
          'suite: shop',
          'target: agent',
          'repeat: 2',
          'cases:',
          '  - id: where',
          '    tags: [orders]',
          '    input: Where is A1?',
          '    assert: [{ type: contains, value: Looked }]',
          '  - id: history',
          '    messages:',
          '      - { role: user, content: hi }',
          '      - { role: assistant, content: hello }',
          '      - { role: user, content: Where is B2? }',
          '    assert: [{ type: contains, value: Looked }]',
          '  - id: broken',
          '    input: crash',
          '    assert: [{ type: contains, value: Looked }]',
          '',
        ].join('\n'),
      },
      config: { targets: { agent }, trace: 'full' },
    });
    dir = run.dir;
    results = run.results;
  });

  it("makes each finished trial a trace: id <case key>#<trial>, the case's input or messages, the trial's reply and trace, case metadata, the run's start", async () => {
    const { traces, files, notes } = await readTraces(['results.json'], { cwd: dir });
    expect(files).toEqual(['results.json']);
    expect(traces.map((t) => t.id)).toEqual(['shop/where#0', 'shop/where#1', 'shop/history#0', 'shop/history#1']);
    const [where, , history] = traces;
    expect(where).toMatchObject({ input: 'Where is A1?', startedAt: results.run.startedAt, source: 'results.json#shop/where/0', metadata: { suite: 'shop', case: 'where', tags: ['orders'] } });
    expect(where!.run.reply).toBe('Looked Where is A1? up.');
    expect(toolCallsOf(where!.run)).toEqual([{ name: 'lookup', args: { q: 'Where is A1?' }, result: 'found' }]);
    expect(history!.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'Where is B2?' },
    ]);
    expect(history!.input).toBeUndefined();
    expect(notes).toEqual(['results.json: 2 trials not scored: did not finish (an error or an interrupt)']);
    for (const t of traces) expect(RecordedTraceSchema.safeParse(t).success, t.id).toBe(true);
  });

  it('says when the run kept tool arguments and results as digests (trace: safe, the default)', async () => {
    const safe = await runInProcess({
      files: { 'evals/one.eval.yaml': ['suite: one', 'target: agent', 'cases:', '  - id: a', '    input: Where is A1?', '    assert: [{ type: calledTool, tool: lookup }]', ''].join('\n') },
      config: { targets: { agent: () => ({ reply: 'ok', steps: [{ toolCalls: [{ name: 'lookup', args: { q: 'A1' } }] }] }) } },
    });
    const { traces, notes } = await readTraces(['results.json'], { cwd: safe.dir });
    expect(toolCallsOf(traces[0]!.run).map((c) => c.name)).toEqual(['lookup']);
    expect(notes).toEqual(["results.json: its tool calls' arguments and results are digests (the run kept them under `trace: safe`; `trace: full` keeps the values)"]);
  });

  it('refuses a results file with no finished trial, one a dry run wrote, and one that is not a valid results document', async () => {
    const failed = structuredClone(results);
    failed.cases = failed.cases.filter((c) => c.id === 'broken');
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(failed));
    expect(await refused(['broken.json'], dir)).toBe('broken.json: holds no finished trial with its case input: nothing to score');
    writeFileSync(join(dir, 'dry.json'), JSON.stringify({ ...results, run: { ...results.run, dryRun: true } }));
    expect(await refused(['dry.json'], dir)).toBe('dry.json: was written by a dry run (`--dry-run`: placeholder replies, the fake judge): it holds no reply of the agent to score');
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ ...results, schemaVersion: 0 }));
    expect(await refused(['old.json'], dir)).toMatch(/^old\.json: not an agent-evals results file: schemaVersion: /);
  });
});

describe('readTraces of JSONL trace lines and OTLP exports, in files and folders', () => {
  it('reads a folder as its .json, .jsonl and .ndjson files at any depth, sorted, and each format by what it holds', async () => {
    const dir = project({
      'traces/b.jsonl': lines('b', 0, 2),
      'traces/2026/a.ndjson': lines('a', 2, 1),
      'traces/otel.json': otlp(agentSpan('t1', 5, 'Where is C3?', 'C3 is late.')),
      'traces/readme.txt': 'not read',
    });
    const { traces, files } = await readTraces(['traces'], { cwd: dir });
    expect(files).toEqual(['traces/2026/a.ndjson', 'traces/b.jsonl', 'traces/otel.json']);
    expect(traces.map((t) => [t.id, t.source])).toEqual([
      ['a-2', 'traces/2026/a.ndjson:1'],
      ['b-0', 'traces/b.jsonl:1'],
      ['b-1', 'traces/b.jsonl:2'],
      ['t1', 'traces/otel.json#t1'],
    ]);
    expect(traces[3]).toMatchObject({ input: 'Where is C3?', startedAt: hour(5), run: { reply: 'C3 is late.' }, metadata: { agent: 'shop-bot', 'service.name': 'shop' } });
  });

  it('samples the same 5 for --sample 5 --seed 1 every time and whatever the order of the files', async () => {
    const dir = project({ 'a.jsonl': lines('t', 0, 10), 'b.jsonl': lines('t', 10, 10) });
    const pick = { cwd: dir, sample: 5, seed: 1 };
    const ids = async (paths: string[]) => (await readTraces(paths, pick)).traces.map((t) => t.id).sort();
    const first = await ids(['a.jsonl', 'b.jsonl']);
    expect(first).toHaveLength(5);
    expect(await ids(['a.jsonl', 'b.jsonl'])).toEqual(first);
    expect(await ids(['b.jsonl', 'a.jsonl'])).toEqual(first);
    // Kept in the order read.
    const kept = (await readTraces(['b.jsonl', 'a.jsonl'], pick)).traces.map((t) => Number(t.id.slice(2)));
    expect(kept.filter((n) => n >= 10)).toEqual(kept.slice(0, kept.filter((n) => n >= 10).length));
    // Fewer traces than the sample: all of them, no note.
    expect((await readTraces(['a.jsonl'], { ...pick, sample: 50 })).traces).toHaveLength(10);
  });

  it('keeps what started in [since, until); a trace without a time is left out when either is set, and counted', async () => {
    const dir = project({ 'a.jsonl': [lines('t', 0, 6), line({ id: 'untimed', input: 'q', reply: 'a' })].join('\n') });
    const { traces, notes } = await readTraces(['a.jsonl'], { cwd: dir, since: new Date(hour(2)), until: new Date(hour(4)) });
    expect(traces.map((t) => t.id)).toEqual(['t-2', 't-3']);
    expect(notes).toEqual([
      '1 trace not scored: no start time recorded, which --since/--until need',
      `2 traces not scored: started before --since ${new Date(hour(2)).toISOString()}`,
      `2 traces not scored: started at or after --until ${new Date(hour(4)).toISOString()}`,
    ]);
    expect((await readTraces(['a.jsonl'], { cwd: dir })).traces).toHaveLength(7);
    expect((await readTraces(['a.jsonl'], { cwd: dir, since: new Date(hour(5)) })).traces.map((t) => t.id)).toEqual(['t-5']);
  });

  it('keeps the first of traces with the same id across files, and says so', async () => {
    const dir = project({ 'a.jsonl': lines('t', 0, 2), 'b.jsonl': lines('t', 1, 2) });
    const { traces, notes } = await readTraces(['a.jsonl', 'b.jsonl'], { cwd: dir });
    expect(traces.map((t) => t.source)).toEqual(['a.jsonl:1', 'a.jsonl:2', 'b.jsonl:2']);
    expect(notes).toEqual(['1 trace not scored: the id of an earlier trace again (the first one is scored)']);
  });
});

describe('readTraces refuses bad input, naming the file and what was expected', () => {
  it('a file in no known format, JSON or not', async () => {
    const dir = project({ 'other.json': JSON.stringify({ spans: [] }), 'notes.jsonl': 'hello\nworld\n', 'list.json': '[1, 2]' });
    const expected = 'neither an OTLP JSON trace export, a results file nor JSONL trace lines ({input|messages, reply, …})';
    expect(await refused(['other.json'], dir)).toBe(`other.json: ${expected} (it has neither \`resourceSpans\`, the results document fields nor a trace line’s \`reply\`): nothing to score`);
    expect(await refused(['notes.jsonl'], dir)).toBe(`notes.jsonl: ${expected} (it is not JSON): nothing to score`);
    expect(await refused(['list.json'], dir)).toContain(`list.json: ${expected}`);
    // An export one document per line with a line cut short: that line is named.
    writeFileSync(join(dir, 'cut.ndjson'), `${otlp(agentSpan('t1', 1, 'q', 'a'))}\n{"resourceSpans": [\n`);
    expect(await refused(['cut.ndjson'], dir)).toBe(`cut.ndjson: ${expected} (line 2 is not JSON): nothing to score`);
  });

  it('an empty folder, and one with none of the three kinds of file', async () => {
    const dir = project({ 'other/readme.md': '# traces' });
    mkdirSync(join(dir, 'empty'));
    expect(await refused(['empty'], dir)).toBe('empty: holds no .json/.jsonl/.ndjson file: a folder of traces holds OTLP JSON exports, results files or JSONL trace lines');
    expect(await refused(['other'], dir)).toMatch(/^other: holds no \.json\/\.jsonl\/\.ndjson file/);
  });

  it('a file with no run to score: empty, or an export whose runs lack an input or a reply', async () => {
    const noReply = { ...agentSpan('t9', 1, 'Where?', 'x'), attributes: [attr('gen_ai.operation.name', 'invoke_agent')] };
    const dir = project({ 'empty.jsonl': '\n\n', 'half.json': otlp(noReply) });
    expect(await refused(['empty.jsonl'], dir)).toMatch(/^empty\.jsonl: is empty: neither an OTLP JSON trace export, a results file nor JSONL trace lines/);
    expect(await refused(['half.json'], dir)).toBe('half.json: holds no agent run with both an input and a reply (1 without): nothing to score');
  });

  it('an export of spans in no convention it reads', async () => {
    const dir = project({ 'http.json': otlp({ traceId: 't', spanId: 's', name: 'GET /health', attributes: [attr('http.method', 'GET')] }) });
    expect(await refused(['http.json'], dir)).toMatch(
      /^http\.json: holds spans of no convention agent-evals reads \(tried OpenTelemetry GenAI: .*\); its first span is "GET \/health" with attributes http\.method: nothing to score$/,
    );
  });

  it('no such file or folder; a bad trace line, by file, line and field', async () => {
    const dir = project({ 'bad.jsonl': [lines('t', 0, 1), line({ input: 'q', reply: 'a', startedAt: 'yesterday' })].join('\n') });
    expect(await refused(['nope.jsonl'], dir)).toBe('nope.jsonl: no such file or folder');
    expect(await refused(['bad.jsonl'], dir)).toMatch(/^bad\.jsonl:2: startedAt: not a time \(ISO 8601/);
  });
});
