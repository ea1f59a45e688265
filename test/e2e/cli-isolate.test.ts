/**
 * `isolate: true` runs a function target in a worker thread with a heap cap: a heap exhaustion, a
 * process.exit or an endless loop in it fails only its own trial, the run writes its results with
 * every case and exits 1; a healthy isolated target gives the verdicts it gives in-process.
 * The subject is the worker thread, not the CLI's process: the built CLI's `main` runs in the test
 * worker (dist/: the isolated worker is a compiled file), whose own process must outlive every fault.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { removeTempDirs, STACK_FRAME, type CliRunner } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { readResults, caseOf } from '../support/results-helpers.js';

afterAll(removeTempDirs);

const suite = (name: string, target: string, cases: Array<[id: string, word: string]>) =>
  `suite: ${name}\ntarget: ${target}\ncases:\n${cases.map(([id, word]) => `  - { id: ${id}, input: ${id}, assert: [{ type: contains, value: ${word} }] }`).join('\n')}\n`;

const run = async (files: Record<string, string>, args: string[] = [], cli: CliRunner = runCliInProcess) => {
  const dir = writeProject(files);
  const json = join(dir, 'results.json');
  const r = await cli(['run', '--json', json, ...args], { cwd: dir, timeoutMs: 60_000 });
  return { r, dir, json };
};

describe('isolate: true', () => {
  it('a target that allocates past its heap cap fails its trial naming the limit; the other cases still pass or fail; results written; exit 1', async () => {
    const config = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: {
    // Grows until the worker's 32 MB heap cap ends it: in-process this would end the whole run.
    hog: { isolate: true, maxHeapMb: 32, function: async () => { const kept = []; for (;;) kept.push(new Array(100000).fill(1.5)); } },
    fine: { isolate: true, maxHeapMb: 32, function: async (input) => 'ok ' + input },
  },
};
`;
    const { r, json } = await run({
      'evals.config.mjs': config,
      'evals/hog.eval.yaml': suite('hog', 'hog', [['grow', 'ok']]),
      'evals/fine.eval.yaml': suite('fine', 'fine', [
        ['passes', 'ok'],
        ['fails', 'absent-word'],
      ]),
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    const res = readResults(json);
    expect(res.cases).toHaveLength(3);
    const grow = caseOf(res, 'hog/grow');
    expect(grow.verdict).toBe('failed');
    expect(grow.trials[0]!.error).toContain('ran out of memory at its heap cap of 32 MB (maxHeapMb; ERR_WORKER_OUT_OF_MEMORY)');
    expect(caseOf(res, 'fine/passes').verdict).toBe('passed');
    const fails = caseOf(res, 'fine/fails');
    expect(fails.verdict).toBe('failed');
    expect(fails.trials[0]!.error).toBeUndefined();
  });

  it("process.exit(0) or a timer's uncaught throw in an isolated target fails that trial naming it; the next trial gets a new worker; exit 1", async () => {
    const config = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  targets: {
    quitter: { isolate: true, maxHeapMb: 32, function: async (input) => {
      if (input === 'quit') process.exit(0);
      // A timer's throw ends the worker while the call waits: the call fails with it.
      if (input === 'throw') { setTimeout(() => { throw new Error('boom from a timer'); }, 0); await new Promise(() => {}); }
      return 'ok ' + input;
    } },
  },
};
`;
    const { r, json } = await run({
      'evals.config.mjs': config,
      'evals/q.eval.yaml': suite('q', 'quitter', [
        ['quit', 'ok'],
        ['after', 'ok'],
        ['throw', 'ok'],
        ['wrong', 'absent-word'],
      ]),
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);
    const quit = caseOf(res, 'q/quit');
    expect(quit.verdict).toBe('failed');
    expect(quit.trials[0]!.error).toContain('called process.exit(0) in its isolated worker');
    // The exit ended only the worker: the target answers the next trials from a new one.
    expect(caseOf(res, 'q/after').verdict).toBe('passed');
    expect(caseOf(res, 'q/throw').trials[0]!.error).toContain('its isolated worker ended on an uncaught error: boom from a timer');
    expect(caseOf(res, 'q/wrong').verdict).toBe('failed');
  });

  it('a timeout ends the worker of a target stuck in a synchronous loop, keeping the usage it recorded; the next trial runs in a new worker', async () => {
    const config = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  targets: {
    // A loop that never yields: in-process no timer could stop it; here the worker is ended.
    // What it recorded before the loop (a paid model call) is kept on the timed-out trial, as in-process.
    spins: { isolate: true, maxHeapMb: 32, function: async (input, ctx) => { ctx.usage({ inputTokens: 120, outputTokens: 30 }); if (input === 'spin') for (;;) {} return 'ok ' + input; } },
  },
};
`;
    // Only the spinning case has a short timeout: the next one has room for a new worker to start on a busy machine.
    // In-process, the next trial was seen to lease the worker being ended (its exit event not yet in):
    // an aborted call marks its worker dead at once.
    const { r, json } = await run({
      'evals.config.mjs': config,
      'evals/s.eval.yaml': `suite: s
target: spins
cases:
  - { id: spin, input: spin, timeoutMs: 1000, assert: [{ type: contains, value: ok }] }
  - { id: after, input: after, assert: [{ type: contains, value: ok }] }
`,
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);
    const spin = caseOf(res, 's/spin').trials[0]!;
    expect(spin.error).toContain('timed out after 1000 ms');
    expect(spin.usage.target).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(caseOf(res, 's/after').verdict).toBe('passed');
  });

  it('gives the verdicts, tool calls, usage and multi-turn session the same function gives in-process, reusing one worker across trials', async () => {
    const agent = `async (input, ctx) => {
    calls += 1;
    const s = ctx.session;
    s.turns = (s.turns ?? 0) + 1;
    const found = await ctx.tool('lookup', { q: input }, ({ q }) => ({ q, hits: q.length }));
    ctx.usage({ inputTokens: 10, outputTokens: 5 });
    ctx.step('thinking about ' + input);
    if (input === 'throws') throw new Error('agent gave up');
    return { reply: 'answer ' + input + ' hits ' + found.hits + ' turn ' + s.turns + ' call ' + calls, model: 'openai:gpt-5.4-mini' };
  }`;
    const config = `let calls = 0;
const agent = ${agent};
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  trace: 'full',
  targets: { inproc: agent, iso: { isolate: true, maxHeapMb: 64, function: agent } },
};
`;
    const cases = (target: string) => `suite: ${target}
target: ${target}
cases:
  - { id: hits, input: abc, assert: [{ type: contains, value: hits 3 }, { type: calledTool, tool: lookup }] }
  - { id: miss, input: abcd, assert: [{ type: contains, value: hits 3 }] }
  - { id: throws, input: throws, assert: [{ type: contains, value: answer }] }
  - id: talk
    turns:
      - { input: first, assert: [{ type: contains, value: turn 1 }] }
      - { input: second, assert: [{ type: contains, value: turn 2 }] }
`;
    const { r, json } = await run({ 'evals.config.mjs': config, 'evals/inproc.eval.yaml': cases('inproc'), 'evals/iso.eval.yaml': cases('iso') });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);
    for (const id of ['hits', 'miss', 'throws', 'talk']) {
      const a = caseOf(res, `inproc/${id}`);
      const b = caseOf(res, `iso/${id}`);
      expect(b.verdict, id).toBe(a.verdict);
      expect(b.trials[0]!.error, id).toBe(a.trials[0]!.error?.replace('target inproc', 'target iso'));
      expect(b.trials[0]!.usage, id).toEqual(a.trials[0]!.usage);
      // The count of calls is each side's own module state; the rest of the reply is the same.
      const reply = (c: typeof a) => c.trials[0]!.reply.replace(/ call \d+$/, '');
      expect(reply(b), id).toBe(reply(a));
      const steps = (c: typeof a) => c.trials[0]!.trace.steps?.map((s) => ({ text: s.text, tools: s.toolCalls?.map((t) => [t.name, t.args, t.result, t.isError]) }));
      expect(steps(b), id).toEqual(steps(a));
    }
    expect(caseOf(res, 'iso/hits').verdict).toBe('passed');
    expect(caseOf(res, 'iso/miss').verdict).toBe('failed');
    expect(caseOf(res, 'iso/throws').trials[0]!.error).toContain('agent gave up');
    expect(caseOf(res, 'iso/talk').verdict).toBe('passed');
    // Module state lives on in the one worker: its calls count up across the isolated single-turn trials.
    const calls = res.cases.filter((c) => c.suite === 'iso' && ['hits', 'miss'].includes(c.id)).map((c) => Number(/call (\d+)/.exec(c.trials[0]!.reply)?.[1]));
    expect(Math.max(...calls)).toBeGreaterThan(1);
  });

  it('a target that posts its own messages on parentPort (a forged `done` without a run, a `warn` or `failed` whose text is an object) fails only its trial; the run goes on, writes its results and prints no [object Object]', async () => {
    const config = `import { parentPort } from 'node:worker_threads';
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  targets: {
    forger: { isolate: true, maxHeapMb: 64, function: async (input) => {
      if (input === 'done') for (let id = 1; id <= 10; id++) parentPort.postMessage({ type: 'done', id, run: null });
      if (input === 'warn') parentPort.postMessage({ type: 'warn', kind: 'counted-once', message: { not: 'text' } });
      if (input === 'failed') for (let id = 1; id <= 10; id++) parentPort.postMessage({ type: 'failed', id, message: { not: 'text' } });
      // No wait before the answer: a port delivers in order, so the host reads the forged message first.
      return 'ok ' + input;
    } },
  },
};
`;
    const { r, json } = await run({
      'evals.config.mjs': config,
      'evals/f.eval.yaml': suite('f', 'forger', [
        ['done', 'ok'],
        ['warn', 'ok'],
        ['failed', 'ok'],
        ['fine', 'ok fine'],
      ]),
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    const res = readResults(json);
    expect(res.cases).toHaveLength(4);
    const refused = 'its isolated worker posted a message the runner does not accept';
    expect(caseOf(res, 'f/done').trials[0]!.error).toContain(`${refused} (run: Invalid input: expected object, received null)`);
    expect(caseOf(res, 'f/warn').trials[0]!.error).toContain(`${refused} (message: Invalid input: expected string, received object)`);
    expect(caseOf(res, 'f/failed').trials[0]!.error).toContain(`${refused} (message: Invalid input: expected string, received object)`);
    for (const id of ['done', 'warn', 'failed']) expect(caseOf(res, `f/${id}`).verdict).toBe('failed');
    // The worker the forgers had was ended: the next trial runs in a new one and passes.
    expect(caseOf(res, 'f/fine').verdict).toBe('passed');
    // The terminal reporter kept going to the summary, and nothing printed an object as text.
    expect(r.stdout).toContain('Cases     1 passed, 3 failed (4)');
    expect(r.stdout + r.stderr).not.toContain('[object Object]');
    expect(r.stderr).not.toContain('reporter "terminal" failed');
  });

  it('ctx.openai() works inside the worker: under --dry-run its call is recorded as a step with the model and zero usage', async () => {
    const config = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  trace: 'full',
  targets: {
    sdk: { isolate: true, maxHeapMb: 128, function: async (input, ctx) => {
      const openai = await ctx.openai();
      const r = await openai.chat.completions.create({ model: 'gpt-5.4-mini', messages: [{ role: 'user', content: input }] });
      return r.choices[0].message.content ?? '';
    } },
  },
};
`;
    const { r, json } = await run({ 'evals.config.mjs': config, 'evals/s.eval.yaml': suite('s', 'sdk', [['one', 'dry run']]) }, ['--dry-run']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const trial = caseOf(readResults(json), 's/one').trials[0]!;
    expect(trial.reply).toContain('[dry run: the model was not called]');
    expect(trial.trace.steps).toEqual([{ model: 'openai:gpt-5.4-mini', usage: expect.objectContaining({ inputTokens: 0, outputTokens: 0 }) }]);
  });

  it('isolates the inline target of a TS eval file: the worker imports the eval file; heap exhaustion and process.exit fail only their trials', async () => {
    const evalFile = `const grow = () => { const kept: number[][] = []; for (;;) kept.push(new Array(100000).fill(1.5)); };
export default {
  suite: 'inline',
  isolate: true,
  maxHeapMb: 32,
  target: async (input: string) => { if (input === 'grow') grow(); if (input === 'quit') process.exit(3); return 'ok ' + input; },
  cases: [
    { id: 'grow', input: 'grow', assert: [{ type: 'contains', value: 'ok' }] },
    { id: 'quit', input: 'quit', assert: [{ type: 'contains', value: 'ok' }] },
    { id: 'fine', input: 'fine', assert: [{ type: 'contains', value: 'ok fine' }] },
  ],
};
`;
    const { r, json } = await run({ 'evals.config.mjs': `export default { outputDir: '.out', concurrency: 1 };\n`, 'evals/inline.eval.ts': evalFile });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);
    expect(caseOf(res, 'inline/grow').trials[0]!.error).toContain('ran out of memory at its heap cap of 32 MB');
    expect(caseOf(res, 'inline/quit').trials[0]!.error).toContain('called process.exit(3) in its isolated worker');
    expect(caseOf(res, 'inline/fine').verdict).toBe('passed');
  });

  it('refuses isolate: true in an eval file whose target is named in the config: exit 2', async () => {
    const { r } = await run({
      'evals.config.mjs': `export default { outputDir: '.out', targets: { named: async () => 'ok' } };\n`,
      'evals/named.eval.ts': `export default { suite: 'named', target: 'named', isolate: true, cases: [{ id: 'one', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }] };\n`,
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('evals/named.eval.ts: isolate: isolate: true isolates the inline target');
  });

  it.each([
    // Built at run time from text that differs on each import: the worker cannot find the same function.
    [
      `{ isolate: true, function: new Function('input', 'return "ok ' + Math.random() + '"') }`,
      'targets.agent: isolate: the function the worker finds at targets.agent in evals.config.mjs is not the one the run was given',
    ],
    [
      `{ isolate: true, maxHeapMb: 8, function: async () => 'ok' }`,
      'targets.agent: expected { function: (input, ctx) => reply, otel?: boolean, isolate?: boolean, maxHeapMb?: number } (a function target with options): maxHeapMb: expected a whole number from 16 to 65,536',
    ],
    [`{ maxHeapMb: 64, function: async () => 'ok' }`, 'targets.agent.maxHeapMb: maxHeapMb caps the heap of an isolated target: it needs isolate: true'],
    [`{ isolate: true, otel: true, function: async () => 'ok' }`, 'targets.agent: isolate and otel cannot be combined'],
  ])('refuses %s at load: exit 2 before any trial', async (target, message) => {
    const { r } = await run({
      'evals.config.mjs': `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: ${target} } };\n`,
      'evals/a.eval.yaml': suite('a', 'agent', [['one', 'ok']]),
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});
