/**
 * `agent-evals import` (issue 26, item 5) through the built CLI's `main` in-process: a hand-written
 * OTLP JSON trace export (test/fixtures/otel-import/two-runs.otlp.json: two `invoke_agent` runs with
 * GenAI semantic-convention chat and execute_tool spans) becomes an eval file that loads and runs
 * against a function target; a results file imports too; a file that is neither is exit 2. Needs
 * dist/ (`npm test` builds it).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDir, removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// `agent` does what the recorded runs did; `careless` hands the refund to a human instead.
const CONFIG = `const calls = (...names) => [{ toolCalls: names.map((name) => ({ name })) }];
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: {
    agent: (input) =>
      input.includes('A1050')
        ? { reply: 'Order A1050 has shipped.', steps: calls('orders_lookup') }
        : { reply: 'I refunded order B2002.', steps: calls('orders_lookup', 'issue_refund') },
    careless: (input) =>
      input.includes('A1050')
        ? { reply: 'Order A1050 has shipped.', steps: calls('orders_lookup') }
        : { reply: 'A colleague will refund it.', steps: calls('orders_lookup', 'escalate') },
  },
};
`;

function project() {
  const dir = writeProject({ 'evals.config.mjs': CONFIG });
  copyFileSync(join(fixtureDir('otel-import'), 'two-runs.otlp.json'), join(dir, 'traces.json'));
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir });
  return { dir, cli };
}

interface EvalFile {
  suite: string;
  target: string;
  cases: Array<{ id: string; input: string; reference: string; assert: unknown[] }>;
}
const readEval = (path: string) => load(readFileSync(path, 'utf8')) as EvalFile;

describe('agent-evals import of an OTLP JSON trace export', () => {
  it('writes one case per agent run that loads (list: 2 cases) and runs; a target that strays from the recording fails', async () => {
    const { dir, cli } = project();
    const imported = await cli(['import', 'traces.json', '--target', 'agent']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('wrote evals/traces.eval.yaml: 2 cases from 2 recorded runs of traces.json');

    const text = readFileSync(join(dir, 'evals', 'traces.eval.yaml'), 'utf8');
    expect(text).toMatch(/^# Imported by `agent-evals import` from traces\.json \(an OTLP trace export\)/);
    expect(text).toContain('Ready to edit');
    const file = readEval(join(dir, 'evals', 'traces.eval.yaml'));
    expect(file).toMatchObject({ suite: 'traces', target: 'agent' });
    expect(file.cases.map(({ input, reference, assert }) => ({ input, reference, assert }))).toEqual([
      {
        input: 'Where is order A1050?',
        reference: 'Order A1050 has shipped.',
        assert: [
          { type: 'toolOrder', tools: ['orders_lookup'] },
          { type: 'notCalledTool', tool: 'issue_refund' },
          { type: 'notCalledTool', tool: 'escalate' },
        ],
      },
      {
        input: 'Please refund order B2002, it arrived broken.',
        reference: 'I refunded order B2002.',
        assert: [
          { type: 'toolOrder', tools: ['orders_lookup', 'issue_refund'] },
          { type: 'notCalledTool', tool: 'escalate' },
        ],
      },
    ]);
    for (const c of file.cases) expect(c.id).toMatch(/^[a-z0-9-]+-[0-9a-f]{8}$/);

    const list = await cli(['list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('2 cases, 2 trials');

    const run = await cli(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const strayed = await cli(['run', '--target', 'careless']);
    expect(strayed.code).toBe(1);
    expect(strayed.stdout).toMatch(/notCalledTool escalate/);
  });

  it('gives the same ids when the same file is imported twice, and never replaces an existing file', async () => {
    const { dir, cli } = project();
    expect((await cli(['import', 'traces.json', '--out', 'first.eval.yaml'])).code).toBe(0);
    expect((await cli(['import', 'traces.json', '--out', 'second.eval.yaml'])).code).toBe(0);
    const ids = (f: string) => readEval(join(dir, f)).cases.map((c) => c.id);
    expect(ids('second.eval.yaml')).toEqual(ids('first.eval.yaml'));
    expect(new Set(ids('first.eval.yaml')).size).toBe(2);

    const again = await cli(['import', 'traces.json', '--out', 'first.eval.yaml']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/first\.eval\.yaml: --out: already exists/);
    // A name `list` and `run` would never load is refused before anything is written.
    const misnamed = await cli(['import', 'traces.json', '--out', 'cases.yaml']);
    expect(misnamed.code).toBe(2);
    expect(misnamed.stderr).toContain('cases.yaml: --out: not a YAML eval file name');
    expect(existsSync(join(dir, 'cases.yaml'))).toBe(false);
  });

  it('refuses (exit 2, writing nothing) a --target the config does not name; without a config file it writes the file for a config to come', async () => {
    const { dir, cli } = project();
    const typo = await cli(['import', 'traces.json', '--target', 'agnet']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--target: unknown target "agnet" for the imported cases \(evals\.config\.mjs\) \(configured: "agent", "careless"\)/);
    expect(typo.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, 'evals', 'traces.eval.yaml'))).toBe(false);
    expect((await cli(['import', 'traces.json', '--target', 'careless'])).code).toBe(0);

    const bare = writeProject({});
    copyFileSync(join(fixtureDir('otel-import'), 'two-runs.otlp.json'), join(bare, 'traces.json'));
    expect((await runCliInProcess(['import', 'traces.json', '--target', 'later'], { cwd: bare })).code).toBe(0);
    expect(readFileSync(join(bare, 'evals', 'traces.eval.yaml'), 'utf8')).toMatch(/^target: later\b/m);
  });
});

describe('agent-evals import of a results file, and of a file that is neither', () => {
  it('imports a recorded run from its results file', async () => {
    const { dir, cli } = project();
    expect((await cli(['import', 'traces.json', '--target', 'agent'])).code).toBe(0);
    expect((await cli(['run', '--json'])).code).toBe(0);
    const res = await cli(['import', '.out/results.json', '--suite', 'replayed', '--target', 'agent']);
    expect(res.code, res.stderr).toBe(0);
    const file = readEval(join(dir, 'evals', 'replayed.eval.yaml'));
    // The same runs, so the same ids; the tools are those the suite's cases called.
    expect(file.cases.map((c) => c.id)).toEqual(readEval(join(dir, 'evals', 'traces.eval.yaml')).cases.map((c) => c.id));
    expect(file.cases[0]!.assert).toEqual([
      { type: 'toolOrder', tools: ['orders_lookup'] },
      { type: 'notCalledTool', tool: 'issue_refund' },
    ]);
    const list = await cli(['list']);
    expect(list.stdout).toContain('4 cases');
  });

  it("skips a simulated user's conversation, saying why, instead of a one-turn case that asks its goal", async () => {
    const { dir, cli } = project();
    const evals = [
      'suite: talk',
      'target: agent',
      'cases:',
      '  - id: plain',
      '    input: Where is order A1050?',
      '    assert: [{ type: contains, value: A1050 }]',
      '  - id: simulated',
      '    simulatedUser: { goal: Get order B2002 refunded., maxTurns: 3, model: fake }',
      '    assert: [{ type: contains, value: B2002 }]',
      '',
    ].join('\n');
    mkdirSync(join(dir, 'evals'), { recursive: true });
    writeFileSync(join(dir, 'evals', 'talk.eval.yaml'), evals);
    const ran = await cli(['run', '--json']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const res = await cli(['import', '.out/results.json', '--suite', 'kept']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      'wrote evals/kept.eval.yaml: 1 case from 1 recorded run of .out/results.json (1 simulated-user conversation skipped (talk/simulated at evals/talk.eval.yaml:7): a conversation is not one input and its reply, so it stays the case its eval file has)',
    );
    const file = readEval(join(dir, 'evals', 'kept.eval.yaml'));
    expect(file.cases.map((c) => c.input)).toEqual(['Where is order A1050?']);

    // A file of nothing but such conversations imports nothing, and says why.
    const only = await cli(['run', '--json', '.out/only.json', '--filter', 'talk/simulated']);
    expect(only.code, only.stdout + only.stderr).toBe(0);
    const none = await cli(['import', '.out/only.json', '--suite', 'none']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('.out/only.json: holds no agent run with both an input and a reply (1 simulated-user conversation skipped (talk/simulated at evals/talk.eval.yaml:7)');

    // So is a TS check's conversation (t.send), on a case of one input.
    const sends =
      "export default { suite: 'ts', target: 'agent', cases: [{ id: 'sends', input: 'Where is order A1050?', check: async (t) => { await t.send('And B2002?'); t.contains('B2002'); } }] };\n";
    writeFileSync(join(dir, 'evals', 'sends.eval.ts'), sends);
    const sent = await cli(['run', '--json', '.out/sends.json', 'evals/sends.eval.ts', 'evals/talk.eval.yaml', '--filter', 'ts', '--filter', 'talk/plain']);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const fromTs = await cli(['import', '.out/sends.json', '--suite', 'fromts']);
    expect(fromTs.code, fromTs.stderr).toBe(0);
    expect(fromTs.stdout).toMatch(/: 1 case from 1 recorded run of \.out\/sends\.json \(1 multi-turn conversation skipped \(ts\/sends at evals\/sends\.eval\.ts(:\d+)?\)/);
  });

  it('refuses (exit 2, naming the file, no stack) a file that is neither a trace export nor a results file', async () => {
    const { dir, cli } = project();
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ spans: [] }));
    for (const file of ['other.json', 'evals.config.mjs']) {
      const res = await cli(['import', file]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(new RegExp(`${file.replace('.', '\\.')}: neither an OTLP JSON trace export nor an agent-evals results file`));
      expect(res.stderr).not.toMatch(STACK_FRAME);
    }
    const missing = await cli(['import', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such file/);
  });

  it('refuses (exit 2) a trace export in no convention it reads, naming the conventions tried and what the first span held', async () => {
    const { dir, cli } = project();
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const spans = [
      {
        traceId: 't',
        spanId: 'a',
        name: 'GET /health\u001b[2J',
        attributes: [attr('http.method', 'GET'), attr('http.route', '/health'), attr('a', '1'), attr('b', '1'), attr('c', '1'), attr('d', '1')],
      },
      { traceId: 't', spanId: 'b', name: 'db query', attributes: [attr('db.system', 'postgresql')] },
    ];
    writeFileSync(join(dir, 'http.json'), JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
    const res = await cli(['import', 'http.json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'http.json: holds spans of no convention agent-evals reads (tried OpenTelemetry GenAI: gen_ai.input.messages, gen_ai.output.messages, gen_ai.tool.definitions, execute_tool spans; OpenLLMetry: gen_ai.prompt.N.*, gen_ai.completion.N.*, llm.request.functions.*; OpenInference: openinference.span.kind, llm.input_messages.*, llm.output_messages.*, llm.tools.*, tool.*; the AI SDK: ai.* spans); its first span is "GET /health\\x1b[2J" with attributes http.method, http.route, a, b, c, and 1 more: nothing to import',
    );
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, 'evals', 'http.eval.yaml'))).toBe(false);

    const help = await cli(['import', '--help']);
    expect(help.stdout).toMatch(/OpenTelemetry GenAI, OpenLLMetry, OpenInference or the\s+AI SDK conventions/);
  });
});
