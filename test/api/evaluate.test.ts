/**
 * Evals inside a test file, as a user writes them: `evaluate(agent)...run()` from the package entry,
 * the judge `openai:gpt-4.1-mini` reached through OPENAI_BASE_URL / OPENAI_API_KEY (the fake OpenAI
 * server, answering as a judge would), function targets as the agents.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { evaluate, EvalFailedError, promptJudge, tool, UserError, type AgentRun, type Judge, type JudgeRequest, type TargetContext } from 'agent-evals';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';

let judgeServer: FakeProvider;
/** What the fake judge answers, per request body: the test decides from the graded reply. */
let answer: (prompt: string, body: { response_format?: unknown; messages: Array<{ role: string }> }) => Scripted;

beforeEach(async () => {
  judgeServer = await startFakeOpenAI({ script: (body: { messages: Array<{ role: string; content: string }> }) => answer(body.messages.map((m) => m.content).join('\n'), body) });
  vi.stubEnv('OPENAI_BASE_URL', judgeServer.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-judge');
  vi.stubEnv('EVALS_JUDGE_PROVIDER', undefined);
  vi.stubEnv('EVALS_JUDGE_MODEL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await judgeServer.close();
});

const POLICY = 'Tells the customer order 42 ships on Monday, politely';
const judgeSays = (score: number, reason: string, tokens = { input: 200, output: 30 }): Scripted => ({ json: { score, reason, evidence: [] }, usage: tokens });

/** A support agent that looks the order up, then answers: the good one and the bad one differ only in the reply. */
const supportAgent = (reply: string) => (): AgentRun => ({
  reply,
  steps: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: '42' }, result: { ships: 'Monday' } }] }, { text: reply }],
});

describe('evaluate(agent).run() in a test file', () => {
  it('passes for a good agent: assertPasses() does not throw, and the result carries score, usage and trials', async () => {
    answer = (prompt) => (prompt.includes('Thanks for waiting!') ? judgeSays(0.92, 'States the Monday shipping date and thanks the customer.') : judgeSays(0.1, 'Wrong date.'));
    const result = await evaluate(supportAgent('Thanks for waiting! Order 42 ships on Monday.'))
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .expectJudge(POLICY, { threshold: 0.8 })
      .calledTool('orders_lookup', { orderId: '42' })
      .run();

    expect(() => result.assertPasses()).not.toThrow();
    expect(result.passed).toBe(true);
    expect(result.verdict).toBe('passed');
    // The mean of the soft (judged) scores; the tool check is a gate, which passed.
    expect(result.score).toBe(0.92);
    expect(result.trials).toHaveLength(1);
    const judged = result.trials[0]!.assertions.find((a) => a.kind === 'judge')!;
    expect(judged.score).toBe(0.92);
    // The judge really was asked, with the model named, through the fake server; its tokens are counted and priced.
    expect(judgeServer.count).toBe(1);
    expect(judgeServer.bodies[0].model).toBe('gpt-4.1-mini');
    expect(result.usage.judge).toMatchObject({ calls: 1, inputTokens: 200, outputTokens: 30 });
    expect(result.usage.judge.costUsd).toBeGreaterThan(0);
    expect(result.usage.target.calls).toBe(0);
  });

  it("fails for a bad agent: assertPasses() throws with the judge's score and reason", async () => {
    answer = (prompt) => (prompt.includes('Thanks for waiting!') ? judgeSays(0.95, 'Correct and polite.') : judgeSays(0.2, 'The reply refuses to give the shipping date and is rude.'));
    const result = await evaluate(supportAgent('Figure it out yourself.'), { name: 'order-status' })
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .expectJudge(POLICY, { threshold: 0.8 })
      .run();

    // A judge below its threshold is a soft miss (`scored`); a test-file eval is strict, so it fails.
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe('scored');
    expect(result.score).toBe(0.2);
    let thrown: unknown;
    try {
      result.assertPasses();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(EvalFailedError);
    const message = (thrown as Error).message;
    expect(message).toContain('The reply refuses to give the shipping date and is rude.');
    expect(message).toContain('score 0.20 < 0.80');
    expect(message).toContain(POLICY);
    expect(message.split('\n')[0]).toMatch(/^evaluate\/order-status scored below a soft threshold/);
  });

  it("strict: false gives the CLI's default back (a soft miss is `scored`, not a failure); a reporter sees the run's events", async () => {
    answer = () => judgeSays(0.2, 'Curt.');
    const events: string[] = [];
    const result = await evaluate((): string => 'Monday.')
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .expectJudge(POLICY)
      .config({ strict: false })
      .reporter({ onBegin: () => void events.push('begin'), onCaseEnd: (r) => void events.push(`case ${r.verdict}`), onEnd: (e) => void events.push(`end ${e.exitCode}`) })
      .run();
    expect(result.verdict).toBe('scored');
    expect(result.passed).toBe(true);
    expect(() => result.assertPasses()).not.toThrow();
    expect(events).toEqual(['begin', 'case scored', 'end 0']);
  });

  it('lists every failed assertion, each with its score, and the judge against a reference', async () => {
    answer = () => judgeSays(0.3, 'Says Tuesday where the reference says Monday.');
    const noTools = (): string => 'It ships on Tuesday.';
    const result = await evaluate(noTools)
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .expectJudgeAgainst({ reference: 'Order 42 ships on Monday.', criteria: 'Gives the same shipping day as the reference', threshold: 0.7 })
      .expect({ type: 'contains', value: 'Monday', severity: 'soft' })
      // A passing gate: not listed.
      .expect({ type: 'contains', value: 'ships' })
      .run();

    expect(() => result.assertPasses()).toThrow(EvalFailedError);
    expect(result.failures).toHaveLength(2);
    expect(result.failures[0]).toMatch(/^judgeAgainst .*score 0\.30 < 0\.70\nreason: Says Tuesday where the reference says Monday\.$/);
    expect(result.failures[1]).toMatch(/^contains "Monday": .* \(score 0\.00\)$/);
    // The reference reached the judge.
    expect(JSON.stringify(judgeServer.bodies[0])).toContain('Order 42 ships on Monday.');
  });

  it('gates first: a failed tool check fails the trial and the judge is not asked', async () => {
    answer = () => judgeSays(0.99, 'great');
    const result = await evaluate((): string => 'Order 42 ships on Monday.')
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .expectJudge(POLICY)
      .calledTool('orders_lookup')
      .run();
    expect(result.verdict).toBe('failed');
    expect(result.failures).toEqual([
      'calledTool orders_lookup: target "agent" recorded no tool calls: use ctx.fetch, ctx.tool or an adapter (a command or HTTP target reports them as steps) (score 0.00)',
    ]);
    expect(result.trials[0]!.assertions.find((a) => a.kind === 'judge')).toMatchObject({ status: 'skipped', skipped: 'gate-failed' });
    expect(judgeServer.count).toBe(0);
  });

  it('calledTool checks the arguments, notCalledTool the absence, noToolErrors the tool results', async () => {
    answer = () => judgeSays(0.9, 'fine');
    const agent = (): AgentRun => ({
      reply: 'Refund started.',
      steps: [
        {
          toolCalls: [
            { name: 'orders_lookup', args: { orderId: '7' }, result: { ok: true } },
            { name: 'refund', args: { orderId: '7' }, result: 'payment service down', isError: true },
          ],
        },
      ],
    });
    const base = evaluate(agent).input('Refund order 7');
    expect((await base.calledTool('orders_lookup', { orderId: '7' }).run()).passed).toBe(true);
    const wrongArgs = await base.calledTool('orders_lookup', { orderId: '42' }).run();
    expect(wrongArgs.passed).toBe(false);
    expect(wrongArgs.failures[0]).toContain('calledTool orders_lookup');
    const refunded = await base.notCalledTool('refund').run();
    expect(refunded.passed).toBe(false);
    expect(refunded.failures[0]).toContain('notCalledTool refund');
    const errored = await base.noToolErrors().run();
    expect(errored.passed).toBe(false);
    expect(errored.failures[0]).toContain('noToolErrors: 1 of 2 tool calls errored');
    // No judged assertion: the judge was never asked.
    expect(judgeServer.count).toBe(0);
  });

  it('an inline function target is typed as one: ctx.tool records the call a calledTool checks', async () => {
    const result = await evaluate(async (input, ctx) => {
      const order = await ctx.tool('orders_lookup', { orderId: input.replace(/\D/g, '') }, (args) => ({ id: args.orderId, ships: 'Monday' }));
      return `Order ${order.id} ships on ${order.ships}.`;
    })
      .input('Where is order 42?')
      .calledTool('orders_lookup', { orderId: '42' })
      .expect({ type: 'contains', value: 'ships on Monday' })
      .run();
    result.assertPasses();
    expect(result.trials[0]!.trace.steps?.[0]?.toolCalls?.[0]).toMatchObject({ name: 'orders_lookup', args: { orderId: '42' }, result: { id: '42', ships: 'Monday' } });
  });

  it('the result keeps tool data (in-process, not an artifact); a reporter given to the eval sees the trace policy: digests under safe, raw under full', async () => {
    const seen: Record<string, unknown> = {};
    const run = (policy: 'safe' | 'full') =>
      evaluate(supportAgent('Order 42 ships on Monday.'))
        .input('Where is order 42?')
        .calledTool('orders_lookup', { orderId: '42' })
        .config({ trace: policy })
        .reporter({ onCaseEnd: (c) => void (seen[policy] = c.trials[0]!.trace.steps![0]!.toolCalls![0]!.args) })
        .run();
    const safe = await run('safe');
    safe.assertPasses();
    expect(safe.trials[0]!.trace.steps![0]!.toolCalls![0]!.args).toEqual({ orderId: '42' });
    expect(seen.safe).toMatchObject({ hash: expect.stringMatching(/^sha256:/), preview: { orderId: '<string:2>' } });
    (await run('full')).assertPasses();
    expect(seen.full).toEqual({ orderId: '42' });
  });

  it('repeat(3): the verdict is the pass rate over trials, as in the CLI', async () => {
    answer = () => judgeSays(0.9, 'fine');
    // One trial in three forgets the lookup.
    let call = 0;
    const flaky = (): AgentRun => (++call % 3 === 2 ? { reply: 'ships Monday' } : supportAgent('ships Monday')());
    const strict = await evaluate(flaky).input('Where is order 42?').calledTool('orders_lookup').repeat(3).config({ earlyStop: false }).run();
    expect(strict.trials).toHaveLength(3);
    expect(strict.trials.filter((t) => t.verdict === 'passed')).toHaveLength(2);
    expect(strict.passed).toBe(false);
    expect(strict.passRate).toMatchObject({ passed: 2, trials: 3 });
    // The trial that forgot returned a reply alone: no trajectory, which the message says.
    expect(strict.failures).toEqual([
      'calledTool orders_lookup: target "flaky" recorded no tool calls: use ctx.fetch, ctx.tool or an adapter (a command or HTTP target reports them as steps) (score 0.00) [trial 2 of 3]',
    ]);

    call = 0;
    const lenient = await evaluate(flaky).input('Where is order 42?').calledTool('orders_lookup').repeat(3).passRate(0.6).config({ earlyStop: false }).run();
    expect(lenient.passed).toBe(true);
    expect(lenient.verdict).toBe('passed');
    expect(lenient.passRate).toMatchObject({ passed: 2, trials: 3 });
  });

  it('repeat(3) stops early once the verdict is decided, as the CLI does', async () => {
    let calls = 0;
    const broken = (): string => (calls++, 'no lookup');
    const result = await evaluate(broken).input('Where is order 42?').calledTool('orders_lookup').repeat(3).config({ concurrency: 1 }).run();
    expect(result.passed).toBe(false);
    expect(calls).toBe(1);
    expect(result.case).toMatchObject({ planned: 3, notRun: 2, notRunReason: 'early-stop' });
  });

  it("takes a target config object: a model agent with a tool, run by the CLI's tool loop and priced by the config's pricing", async () => {
    // One fake server answers both: the agent's model (a tool call, then the reply) and the judge (structured output).
    answer = (_prompt, body) =>
      body.response_format
        ? judgeSays(0.9, 'Gives the date from the lookup.', { input: 300, output: 40 })
        : body.messages.some((m) => m.role === 'tool')
          ? { text: 'Order 42 ships on Monday.', usage: { input: 150, output: 12 } }
          : { toolCalls: [{ name: 'orders_lookup', args: { orderId: '42' } }], usage: { input: 100, output: 8 } };
    const lookups: unknown[] = [];
    const ordersLookup = tool({ name: 'orders_lookup', parameters: z.object({ orderId: z.string() }), execute: (args) => (lookups.push(args), { ships: 'Monday' }) });
    const result = await evaluate({ model: 'openai:gpt-4.1-mini', instructions: 'You are a support agent.', tools: [ordersLookup] })
      .input('Where is my order 42?')
      .useJudge('openai:gpt-4.1-mini')
      .calledTool('orders_lookup', { orderId: '42' })
      .expectJudge(POLICY)
      .config({ pricing: { 'openai:gpt-4.1-mini': { input: 1, output: 2 } } })
      .run();
    result.assertPasses();
    expect(lookups).toEqual([{ orderId: '42' }]);
    expect(result.trials[0]!.reply).toBe('Order 42 ships on Monday.');
    expect(result.usage.target).toMatchObject({ calls: 2, inputTokens: 250, outputTokens: 20 });
    expect(result.usage.target.costUsd).toBeCloseTo((250 * 1 + 20 * 2) / 1e6, 12);
    expect(result.usage.judge).toMatchObject({ calls: 1, inputTokens: 300, outputTokens: 40 });
    expect(result.usage.judge.costUsd).toBeCloseTo((300 * 1 + 40 * 2) / 1e6, 12);
    // The run's warnings come back with the result, as the CLI prints them.
    expect(result.warnings).toContainEqual(
      expect.stringContaining("the judge openai:gpt-4.1-mini is also the target's model (openai:gpt-4.1-mini): a model grading its own output tends to favour it"),
    );
    // The judge saw the configured instructions (trusted), as the CLI shows them.
    expect(JSON.stringify(judgeServer.bodies.at(-1))).toContain('You are a support agent.');
  });

  it('accepts a judge object (any implementation of the Judge port)', async () => {
    const seen: JudgeRequest[] = [];
    const judge: Judge = {
      provider: 'team',
      model: 'reviewer-1',
      async judge(request) {
        seen.push(request);
        return { score: 0.4, reason: 'Too curt for our tone guide.', evidence: [], usage: { calls: 1, inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.001 } };
      },
    };
    const result = await evaluate(supportAgent('Monday.')).input('Where is order 42?').useJudge(judge).expectJudge('Follows the tone guide').run();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.output).toBe('Monday.');
    expect(seen[0]!.criterion).toMatchObject({ kind: 'rubric', criteria: 'Follows the tone guide' });
    expect(result.passed).toBe(false);
    expect(() => result.assertPasses()).toThrow(/Too curt for our tone guide\./);
    expect(result.usage.judge).toMatchObject({ calls: 1, costUsd: 0.001 });
    expect(judgeServer.count).toBe(0);
  });

  it('takes promptJudge(callable): 0.82 passes at threshold 0.8, a score of 1.4 errors as a gate', async () => {
    const prompts: string[] = [];
    const says = (text: string) =>
      promptJudge((prompt) => {
        prompts.push(prompt);
        return Promise.resolve(text);
      });
    const good = await evaluate(supportAgent('Order 42 ships on Monday.'))
      .input('Where is order 42?')
      .useJudge(says('Verdict: {"score":0.82,"reason":"Gives the Monday date."}'))
      .expectJudge('Gives the shipping date', { threshold: 0.8 })
      .run();
    expect(() => good.assertPasses()).not.toThrow();
    expect(good.score).toBeCloseTo(0.82, 12);
    const bad = await evaluate(supportAgent('Order 42 ships on Monday.'))
      .input('Where is order 42?')
      .useJudge(says('{"score":1.4,"reason":"Very good."}'))
      .expectJudge('Gives the shipping date', { threshold: 0.8 })
      .run();
    expect(bad.passed).toBe(false);
    const assertion = bad.trials[0]!.assertions.find((a) => a.kind === 'judge');
    expect(assertion?.status).toBe('error');
    expect(() => bad.assertPasses()).toThrow(EvalFailedError);
    // The callable saw the reply only inside the untrusted block.
    expect(prompts[0]).toMatch(/<untrusted-target-trace>[\s\S]*Order 42 ships on Monday\.[\s\S]*<\/untrusted-target-trace>/);
    expect(judgeServer.count).toBe(0);
  });

  it('a bad assertion spec is a UserError naming the assertion and field, thrown when it is added', () => {
    const agent = (): string => 'hi';
    expect(() => evaluate(agent).expect({ type: 'contians', value: 'x' } as never)).toThrow(UserError);
    expect(() => evaluate(agent).expect({ type: 'contians', value: 'x' } as never)).toThrow(/unknown assertion type "contians": did you mean "contains"\? \(known: .*contains/);
    expect(() => evaluate(agent).expect({ type: 'contains' } as never)).toThrow(/^evaluate\(\)\.expect\(contains\): value: /);
    expect(() => evaluate(agent).expectJudge('ok', { threshold: 2 })).toThrow(/^evaluate\(\)\.expect\(judge\): threshold: /);
    expect(() => evaluate(agent).calledTool('x', {}, { times: 1, atLeast: 1 })).toThrow(/calledTool takes either times or atLeast\/atMost, not both/);
    // A turn's assertions are an eval file's turn assertions: no `custom` predicate there.
    expect(() => evaluate(agent).turns([{ input: 'x', assert: [{ type: 'custom', name: 'p', fn: () => true }] as never }])).toThrow(/unknown assertion type "custom"/);
  });

  it('a run without input or expectation, or with a bad target or judge, is a UserError before any agent runs', async () => {
    let ran = 0;
    const agent = (): string => (ran++, 'hi');
    await expect(evaluate(agent).expect({ type: 'contains', value: 'hi' }).run()).rejects.toThrow(/\.input\(text\), \.messages\(\[\.\.\.\]\) or \.turns\(\[\.\.\.\]\)/);
    await expect(evaluate(agent).input('hello').run()).rejects.toThrow(/nothing is checked/);
    await expect(evaluate({ url: 'not a url' }).input('hello').expect({ type: 'contains', value: 'hi' }).run()).rejects.toThrow(UserError);
    await expect(evaluate(agent).input('hello').useJudge('nonsense:').expectJudge('ok').run()).rejects.toThrow(UserError);
    // A judged expectation and no judge anywhere (no useJudge, no EVALS_JUDGE_*): refused, saying how a test gives one.
    await expect(evaluate(agent).input('hello').expectJudge('ok').run()).rejects.toThrow(/a judged assertion and no judge to grade it: .*evaluate\(\.\.\.\)\.useJudge\('provider:model'\)/);
    vi.stubEnv('OPENAI_API_KEY', '');
    await expect(evaluate(agent).input('hello').useJudge('openai:gpt-4.1-mini').expectJudge('ok').run()).rejects.toThrow(/OPENAI_API_KEY is not set/);
    expect(ran).toBe(0);
  });

  it('.expect() takes any eval-file assertion, .messages() a history and .turns() a conversation', async () => {
    const seen: string[][] = [];
    const echo = (input: string, ctx: TargetContext): string => (seen.push(ctx.messages.map((m) => m.content)), `you said: ${input}`);
    const one = await evaluate(echo)
      .messages([
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second' },
      ])
      .expect({ type: 'contains', value: 'you said: second' })
      .expect({ type: 'custom', name: 'short', fn: ({ reply }) => reply.length < 40 })
      .run();
    expect(one.failures).toEqual([]);
    expect(one.passed).toBe(true);
    expect(seen[0]).toEqual(['first', 'ok', 'second']);
    const talk = await evaluate(echo)
      .turns(['hello', { input: 'bye', assert: [{ type: 'contains', value: 'you said: bye' }] }])
      .run();
    expect(talk.passed).toBe(true);
    expect(talk.trials[0]!.turns?.map((t) => t.reply)).toEqual(['you said: hello', 'you said: bye']);
    expect(seen[2]).toEqual(['hello', 'you said: hello', 'bye']);
  });

  it('an aborted signal stops the run as Ctrl-C stops the CLI: no pass, and the reason says so', async () => {
    let ran = 0;
    const aborted = new AbortController();
    aborted.abort();
    const result = await evaluate((): string => (ran++, 'hi'))
      .input('x')
      .expect({ type: 'contains', value: 'hi' })
      .signal(aborted.signal)
      .run();
    expect(ran).toBe(0);
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe('skipped');
    expect(() => result.assertPasses()).toThrow(/1 of 1 trials not run: the run was interrupted/);
  });

  it('a signal aborted while a trial runs: no pass, and the failures say the trial was cut off', async () => {
    const aborting = new AbortController();
    // The agent is mid-call when the signal aborts, and stops on its own signal, as a well-behaved one does.
    const result = await evaluate(
      (_input: string, ctx: { signal: AbortSignal }): Promise<string> =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
          aborting.abort();
        }),
    )
      .input('x')
      .expect({ type: 'contains', value: 'hi' })
      .signal(aborting.signal)
      .run();
    expect(result.passed).toBe(false);
    expect(result.trials.map((t) => t.verdict)).toEqual(['interrupted']);
    expect(result.failures).toEqual(['1 of 1 trials not run (1 cut off mid-way): the run was interrupted (its signal aborted)']);
    expect(() => result.assertPasses()).toThrow(/1 cut off mid-way\): the run was interrupted/);
  });

  it('leaves no process listeners behind', async () => {
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    await evaluate(() => 'hi')
      .input('x')
      .expect({ type: 'contains', value: 'hi' })
      .run();
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(before);
  });

  it('traps process.exit during the run (the trial fails naming it) and leaves exit, abort, kill and exitCode as it found them', async () => {
    const found = { exit: process.exit, abort: process.abort, kill: process.kill, exitCode: process.exitCode, exitListeners: process.listenerCount('exit') };
    let after = false;
    const result = await evaluate(function quitter(): string {
      process.exitCode = 7;
      process.exit(0);
      after = true;
      return 'hi';
    })
      .input('x')
      .expect({ type: 'contains', value: 'hi' })
      .run();
    expect(after).toBe(false);
    expect(result.verdict).toBe('failed');
    expect(result.trials[0]!.error).toContain('target "quitter" called process.exit(0) during its trial (trapped');
    expect({ exit: process.exit, abort: process.abort, kill: process.kill, exitCode: process.exitCode, exitListeners: process.listenerCount('exit') }).toEqual(found);
  });
});
