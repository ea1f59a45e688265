/**
 * `agent-evals run --matrix model=… --matrix effort=… --matrix instructions=@…` over one model-agent
 * target, in process against the fake OpenAI and Anthropic APIs: 2 models × 2 efforts are 4 variants,
 * each request carrying its variant's model and effort, each variant named in the results JSON (its
 * settings beside it), the comparison table, JUnit and the console. Bad settings (a bare id the
 * capability table cannot place, an effort the variant's model does not take, an instructions file
 * that is not there, a target that is no model agent) are exit 2 before any request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

afterAll(removeTempDirs);

const CONFIG = `export default {
  evals: ['evals/**/*.eval.yaml'],
  targets: {
    agent: { model: 'openai:gpt-4.1-mini', instructions: 'You are the base agent.' },
    script: { command: ['node', '-e', 'process.stdout.write(JSON.stringify({ output: "hi" }))'] },
  },
};
`;
const SUITE = `suite: support
target: agent
cases:
  - id: greet
    input: Say hello.
    assert: [{ type: contains, value: hello }]
`;

let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
beforeEach(async () => {
  openai = await startFakeOpenAI({ script: () => ({ text: 'hello from openai' }) });
  anthropic = await startFakeAnthropic({ script: () => ({ text: 'hello from anthropic' }) });
});
afterEach(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
});

const env = () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.url, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: anthropic.url });
const run = (dir: string, args: string[]) => runCliInProcess(['run', ...args], { cwd: dir, env: env() });
const requests = () => openai.count + anthropic.count;

describe('agent-evals run --matrix over a model-agent target’s settings', () => {
  it('model × effort runs 4 variants, each with its model and effort, each named in the JSON, the table, JUnit and the console', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    const r = await run(dir, ['--matrix', 'model=openai:gpt-5.5,anthropic:claude-haiku-5-5', '--matrix', 'effort=low,high', '--json', 'results.json', '--reporter', 'junit=junit.xml']);
    expect(r.code, r.stderr).toBe(0);

    const sent = [...openai.bodies.map((b) => `${b.model} ${b.reasoning_effort}`), ...anthropic.bodies.map((b) => `${b.model} ${b.output_config?.effort}`)].sort();
    expect(sent).toEqual(['claude-haiku-5-5 high', 'claude-haiku-5-5 low', 'gpt-5.5 high', 'gpt-5.5 low']);

    const names = [
      'agent[model=openai:gpt-5.5,effort=low]',
      'agent[model=openai:gpt-5.5,effort=high]',
      'agent[model=anthropic:claude-haiku-5-5,effort=low]',
      'agent[model=anthropic:claude-haiku-5-5,effort=high]',
    ];
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.variant)).toEqual([
      { name: names[0], target: 'agent', model: 'openai:gpt-5.5', effort: 'low' },
      { name: names[1], target: 'agent', model: 'openai:gpt-5.5', effort: 'high' },
      { name: names[2], target: 'agent', model: 'anthropic:claude-haiku-5-5', effort: 'low' },
      { name: names[3], target: 'agent', model: 'anthropic:claude-haiku-5-5', effort: 'high' },
    ]);
    expect(results.cases.map((c) => c.matrix)).toEqual([
      { model: 'openai:gpt-5.5', effort: 'low' },
      { model: 'openai:gpt-5.5', effort: 'high' },
      { model: 'anthropic:claude-haiku-5-5', effort: 'low' },
      { model: 'anthropic:claude-haiku-5-5', effort: 'high' },
    ]);
    // Equal N per cell: one table of the four variants, one trial each.
    const [table, ...more] = results.summary.matrix!;
    expect(more).toEqual([]);
    expect(table!.dimension).toBe('model × effort');
    expect(table!.rows.map((row) => [row.value, row.passRate.trials])).toEqual(names.map((n) => [n, 1]));

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('greet [model=openai:gpt-5.5,effort=low]');
    expect(junit).toContain('greet [model=anthropic:claude-haiku-5-5,effort=high]');
    for (const n of names) expect(r.stdout).toContain(n);
  });

  it("the issue's own example: --matrix model=gpt-6.1-sol,claude-haiku-5-5 --matrix effort=low,high runs 4 variants, gpt-6.1-sol on the Responses API", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    const r = await run(dir, ['--matrix', 'model=gpt-6.1-sol,claude-haiku-5-5', '--matrix', 'effort=low,high', '--json', 'results.json']);
    expect(r.code, r.stderr).toBe(0);
    // gpt-6.1-sol takes its requests on the Responses API (reasoning.effort), Claude on Messages (output_config.effort).
    const sent = [...openai.bodies.map((b) => `${b.model} ${b.reasoning?.effort}`), ...anthropic.bodies.map((b) => `${b.model} ${b.output_config?.effort}`)].sort();
    expect(sent).toEqual(['claude-haiku-5-5 high', 'claude-haiku-5-5 low', 'gpt-6.1-sol high', 'gpt-6.1-sol low']);
    expect(openai.bodies.every((b) => b.input !== undefined && b.messages === undefined)).toBe(true);
    const names = ['agent[model=gpt-6.1-sol,effort=low]', 'agent[model=gpt-6.1-sol,effort=high]', 'agent[model=claude-haiku-5-5,effort=low]', 'agent[model=claude-haiku-5-5,effort=high]'];
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.variant?.name)).toEqual(names);
    expect(results.summary.matrix![0]!.rows.map((row) => [row.value, row.passRate.trials])).toEqual(names.map((n) => [n, 1]));
    for (const n of names) expect(r.stdout).toContain(n);
  });

  it('a bare model id is placed by the capability table; one it cannot place is exit 2 asking for provider:model, before any request', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    const placed = await run(dir, ['--matrix', 'model=gpt-5.5,claude-haiku-5-5', '--json', 'results.json']);
    expect(placed.code, placed.stderr).toBe(0);
    expect(openai.bodies.map((b) => b.model)).toEqual(['gpt-5.5']);
    expect(anthropic.bodies.map((b) => b.model)).toEqual(['claude-haiku-5-5']);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => [c.variant?.name, c.variant?.model])).toEqual([
      ['agent[model=gpt-5.5]', 'openai:gpt-5.5'],
      ['agent[model=claude-haiku-5-5]', 'anthropic:claude-haiku-5-5'],
    ]);

    const before = requests();
    const r = await run(dir, ['--matrix', 'model=gpt-5.5,my-local-model']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('model "my-local-model"');
    expect(r.stderr).toContain('write provider:model');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(requests()).toBe(before);
  });

  it("an effort a variant's model does not take is exit 2 naming the variant, before any request", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    const r = await run(dir, ['--matrix', 'model=openai:gpt-5.5,openai:gpt-4.1-mini', '--matrix', 'effort=low']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('variant agent[model=openai:gpt-4.1-mini,effort=low]');
    expect(r.stderr).toContain('takes no reasoning effort');
    expect(requests()).toBe(0);
  });

  it('instructions=@a.md,@b.md sends each file as its variant’s system prompt; a missing file is exit 2 naming it', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE, 'prompts/a.md': 'You are terse.', 'prompts/b.md': 'You are chatty.' });
    const r = await run(dir, ['--matrix', 'instructions=@prompts/a.md,@prompts/b.md', '--json', 'results.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(openai.bodies.map((b) => b.messages[0])).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'system', content: 'You are chatty.' },
    ]);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.variant?.name)).toEqual(['agent[instructions=@prompts/a.md]', 'agent[instructions=@prompts/b.md]']);

    const before = requests();
    const missing = await run(dir, ['--matrix', 'instructions=@prompts/a.md,@prompts/nope.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read instructions file prompts/nope.md');
    expect(requests()).toBe(before);
  });

  it('a target of another kind is exit 2 naming it; with target=… the dimensions multiply; --target takes them', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG.replace('targets: {', "targets: {\n    other: { model: 'openai:gpt-5.5' },"),
      'evals/support.eval.yaml': SUITE,
    });
    const bad = await run(dir, ['--matrix', 'target=agent,script', '--matrix', 'model=openai:gpt-5.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('target "script" is not a model-agent target');
    expect(requests()).toBe(0);

    const r = await run(dir, ['--matrix', 'target=agent,other', '--matrix', 'model=openai:gpt-5.5', '--matrix', 'effort=low,high', '--json', 'results.json']);
    expect(r.code, r.stderr).toBe(0);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.variant?.name)).toEqual([
      'agent[model=openai:gpt-5.5,effort=low]',
      'agent[model=openai:gpt-5.5,effort=high]',
      'other[model=openai:gpt-5.5,effort=low]',
      'other[model=openai:gpt-5.5,effort=high]',
    ]);
    expect(results.summary.matrix![0]!.dimension).toBe('target × model × effort');

    // --target takes the settings dimensions too: that one target, varied.
    const one = await run(dir, ['--target', 'other', '--matrix', 'effort=low,high', '--json', 'one.json']);
    expect(one.code, one.stderr).toBe(0);
    const oneResults = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'one.json'), 'utf8')));
    expect(oneResults.cases.map((c) => c.variant?.name)).toEqual(['other[effort=low]', 'other[effort=high]']);
  });

  it("an eval file's matrix takes the same dimensions; a bad one names the file and line", async () => {
    const suite = SUITE.replace('target: agent\n', 'target: agent\nmatrix:\n  model: [openai:gpt-5.5]\n  effort: [low, high]\n');
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': suite });
    const r = await run(dir, ['--json', 'results.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(openai.bodies.map((b) => b.reasoning_effort)).toEqual(['low', 'high']);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.variant?.name)).toEqual(['agent[model=openai:gpt-5.5,effort=low]', 'agent[model=openai:gpt-5.5,effort=high]']);

    writeFileSync(join(dir, 'evals/support.eval.yaml'), suite.replace('effort: [low, high]', 'effort: [low, sideways]'));
    const bad = await run(dir, []);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/evals\/support\.eval\.yaml:3: matrix: variant agent\[model=openai:gpt-5\.5,effort=sideways\]/);
    expect(openai.count).toBe(2);
  });

  it('compare tells the variants of two runs apart by name: a regression of one variant names it', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    const flags = ['--matrix', 'model=openai:gpt-5.5', '--matrix', 'effort=low,high'];
    expect((await run(dir, [...flags, '--json', 'base.json'])).code).toBe(0);
    // The second run's high-effort variant stops greeting.
    await openai.close();
    openai = await startFakeOpenAI({ script: (body) => ({ text: body.reasoning_effort === 'high' ? 'bye' : 'hello' }) });
    expect((await run(dir, [...flags, '--json', 'head.json'])).code).toBe(1);
    const r = await runCliInProcess(['compare', 'base.json', 'head.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('support/greet [model=openai:gpt-5.5,effort=high]');
    expect(r.stdout).not.toContain('support/greet [model=openai:gpt-5.5,effort=low]');
  });

  it("rejudge plans a recording's settings variants again, so each is re-graded under its own key", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': SUITE });
    expect((await run(dir, ['--matrix', 'target=agent', '--json', 'targets.json'])).code).toBe(0);
    expect((await run(dir, ['--matrix', 'model=openai:gpt-5.5', '--matrix', 'effort=low,high', '--json', 'variants.json'])).code).toBe(0);
    const before = requests();
    for (const [file, names] of [
      ['variants.json', ['agent[model=openai:gpt-5.5,effort=low]', 'agent[model=openai:gpt-5.5,effort=high]']],
      ['targets.json', [undefined]],
    ] as const) {
      const r = await runCliInProcess(['rejudge', file, '--json', `re-${file}`], { cwd: dir, env: env() });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(r.stderr).not.toContain('not in the config');
      const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, `re-${file}`), 'utf8')));
      expect(results.cases.map((c) => c.variant?.name)).toEqual(names);
    }
    expect(requests()).toBe(before);
  });
});
