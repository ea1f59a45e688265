/**
 * Multi-turn cases end to end (in-process runner): YAML `turns:` over the HTTP target against a
 * tiny node:http agent service, `t.send` in a TS check over a function target, and a target that
 * cannot hold a conversation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { createStore, POLICIES } from '../../evals/agents/store.js';
import type { AgentRun, Step } from '../../src/core/agent-run.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { JudgeService, JudgeTrialContext } from '../../src/judges/judge-service.js';
import { UserError } from '../../src/core/errors.js';
import { runInProcess } from '../support/run-in-process.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections(); // keep-alive sockets would hold close() open
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/**
 * The agent service: a refund desk that needs the order's email before refunding. Each session has
 * its own store and remembers the order under discussion across turns.
 */
async function startAgentService(): Promise<{ url: string; log: string[] }> {
  const log: string[] = [];
  const sessions = new Map<string, { store: ReturnType<typeof createStore>; orderId?: string }>();
  const turn = (s: { store: ReturnType<typeof createStore>; orderId?: string }, message: string): AgentRun => {
    const steps: Step[] = [];
    const call = <T>(name: string, args: Record<string, unknown>, fn: () => T): T => {
      const result = fn();
      steps.push({ toolCalls: [{ name, args, result, isError: false }], usage: { inputTokens: 100, outputTokens: 10 }, model: 'openai:gpt-4.1-mini' });
      return result;
    };
    s.orderId = /\b[A-Z]\d{4}\b/.exec(message)?.[0] ?? s.orderId;
    if (!s.orderId) return { reply: 'Which order?', steps };
    const order = call('orders_lookup', { orderId: s.orderId }, () => s.store.lookup(s.orderId!));
    const email = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(message)?.[0];
    if (email !== order.email) {
      call('policy_lookup', { topic: 'refunds' }, () => POLICIES.refunds);
      return { reply: `Please verify the email on order ${order.id}.`, steps };
    }
    const refund = call('refunds_issue', { orderId: order.id }, () => s.store.refund(order.id));
    return { reply: `Verified. A refund of $${refund.amountUsd.toFixed(2)} for ${order.id} was issued.`, steps };
  };
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      log.push(`${req.method} ${req.url}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/health') return send(200, { ok: true });
      if (req.method === 'POST' && req.url === '/sessions') {
        const id = `s${sessions.size + 1}`;
        sessions.set(id, { store: createStore() });
        return send(201, { sessionId: id });
      }
      const m = /^\/sessions\/(\w+)\/turns$/.exec(req.url ?? '');
      const s = m && sessions.get(m[1]!);
      if (!s) return send(404, { error: 'no such session' });
      try {
        return send(200, turn(s, (JSON.parse(raw) as { message: string }).message));
      } catch (err) {
        return send(500, { error: String(err) });
      }
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

const conversationYaml = `
suite: refunds/conversation
target: desk
cases:
  - id: verify-then-refund
    turns:
      - input: Please refund order A1049.
        assert:
          - { type: contains, value: verify the email }
          - { type: notCalledTool, tool: refunds_issue }
          - { type: toolSequence, tools: [orders_lookup, policy_lookup] }
      - input: Sure, it is ann@example.com
        assert:
          - { type: regex, pattern: 'refund of \\$42\\.00' }
          - { type: calledTool, tool: refunds_issue, args: { orderId: A1049 }, times: 1 }
          - { type: maxToolCalls, max: 2 }
    assert:
      - { type: toolSequence, tools: [orders_lookup, policy_lookup, orders_lookup, refunds_issue] }
      - { type: calledTool, tool: orders_lookup, times: 2 }
      - { type: startsWith, value: Verified. }
  - id: wrong-turn-expectation
    turns:
      - input: Refund A1050 please
      - input: It is bo@example.com
        assert:
          - { type: contains, value: refund of $42.00 }
`;

describe('multi-turn YAML cases over the HTTP target', () => {
  it("checks each turn's reply and tool calls, and the accumulated run at case level", async () => {
    const svc = await startAgentService();
    const { results, exitCode } = await runInProcess({ files: { 'evals/conversation.eval.yaml': conversationYaml }, config: { targets: { desk: { url: svc.url } } } });

    const pass = results.cases.find((c) => c.id === 'verify-then-refund')!;
    const trial = pass.trials[0]!;
    expect(trial.error).toBeUndefined();
    expect(trial.verdict).toBe('passed');
    expect(trial.reply).toBe('Verified. A refund of $42.00 for A1049 was issued.');
    expect(trial.assertions.map((a) => [a.kind, a.turn ?? 'case', a.status])).toEqual([
      ['contains', 1, 'passed'],
      ['notCalledTool', 1, 'passed'],
      ['toolSequence', 1, 'passed'],
      ['regex', 2, 'passed'],
      ['calledTool', 2, 'passed'],
      ['maxToolCalls', 2, 'passed'],
      ['toolSequence', 'case', 'passed'],
      ['calledTool', 'case', 'passed'],
      ['startsWith', 'case', 'passed'],
    ]);
    // Every turn's steps and usage are in the trial's run, each step priced by its model.
    expect(trial.trace.steps!.flatMap((s) => s.toolCalls!.map((c) => c.name))).toEqual(['orders_lookup', 'policy_lookup', 'orders_lookup', 'refunds_issue']);
    expect(trial.usage.target).toMatchObject({ calls: 4, inputTokens: 400, outputTokens: 40 });
    expect(trial.usage.target.costUsd).toBeCloseTo((400 * 0.4 + 40 * 1.6) / 1e6, 12);

    const fail = results.cases.find((c) => c.id === 'wrong-turn-expectation')!;
    expect(fail.verdict).toBe('failed');
    expect(fail.trials[0]!.assertions).toEqual([expect.objectContaining({ kind: 'contains', turn: 2, status: 'failed', message: expect.stringContaining('refund of $42.00') })]);
    expect(exitCode).toBe(1);
    // One health check for the run; one session per trial.
    expect(svc.log.filter((l) => l === 'GET /health')).toHaveLength(1);
    expect(svc.log.filter((l) => l === 'POST /sessions')).toHaveLength(2);
  });

  it("grades a judged turn assertion on that turn's reply, showing the judge the whole conversation", async () => {
    const svc = await startAgentService();
    const seen: JudgeTrialContext[] = [];
    const judges: JudgeService = {
      async judge(_spec, ctx) {
        seen.push(ctx);
        return { kind: 'scored', score: { score: 1, reason: 'ok', evidence: [], usage: emptyUsage() }, by: { provider: 'fake', model: 'fixtures' } };
      },
    };
    const yaml = `suite: j\ntarget: desk\ncases:\n  - id: c\n    turns:\n      - input: Refund A1049\n        assert: [{ type: closedQa, question: Does it ask for the email? }]\n      - input: ann@example.com\n`;
    const { results } = await runInProcess({ files: { 'evals/j.eval.yaml': yaml }, config: { targets: { desk: { url: svc.url } } }, judges });
    expect(results.cases[0]!.trials[0]!.assertions[0]).toMatchObject({ kind: 'closedQa', turn: 1, status: 'passed' });
    expect(seen[0]!.reply).toBe('Please verify the email on order A1049.');
    expect(seen[0]!.transcript).toEqual([
      { role: 'user', content: 'Refund A1049' },
      { role: 'assistant', content: 'Please verify the email on order A1049.' },
      { role: 'user', content: 'ann@example.com' },
      { role: 'assistant', content: 'Verified. A refund of $42.00 for A1049 was issued.' },
    ]);
  });

  it('refuses a multi-turn case on a command target before it runs, and fails a t.send() on one naming the target', async () => {
    // The CLI's planning knows the config's command targets, so a YAML case with turns on one is
    // bad input at its line, not a trial that fails.
    const yaml = `suite: cli\ntarget: cli\ncases:\n  - id: two-turns\n    turns:\n      - input: hi\n      - input: again\n        assert: [{ type: isJson }]\n`;
    const planned = runInProcess({
      files: { 'evals/cli.eval.yaml': yaml },
      config: { targets: { cli: { command: ['node', '-e', 'process.stdout.write(JSON.stringify({ reply: "hi" }))'] } } },
    });
    await expect(planned).rejects.toThrow(
      'evals/cli.eval.yaml:4: turns: this case has 2 turns, but target "cli" is a command target (one process per trial), which cannot hold a conversation; multi-turn needs a function, model or HTTP target',
    );
    await expect(planned).rejects.toBeInstanceOf(UserError);

    const evalTs = `export default { suite: 'ts', target: 'cli', cases: [{ id: 'send', input: 'hi', check: async (t) => { await t.send('again'); } }] };`;
    const ts = await runInProcess({
      files: { 'evals/send.eval.ts': evalTs },
      config: { evals: ['evals/*.eval.ts'], targets: { cli: { command: ['node', '-e', 'process.stdout.write(JSON.stringify({ reply: "hi" }))'] } } },
    });
    expect(ts.results.cases[0]!.trials[0]).toMatchObject({
      verdict: 'failed',
      reply: 'hi',
      error: 'target cli: cannot hold a conversation (t.send() continues the conversation); multi-turn needs a function, model or HTTP target',
    });
  });

  it('reports which turn failed when the service errors mid-conversation, keeping earlier turns', async () => {
    const svc = await startAgentService();
    const yaml = `suite: s\ntarget: desk\ncases:\n  - id: c\n    turns:\n      - input: Refund A1049\n      - input: Refund Z9999 instead\n        assert: [{ type: isJson }]\n`;
    const { results } = await runInProcess({ files: { 'evals/s.eval.yaml': yaml }, config: { targets: { desk: { url: svc.url } } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toMatch(/^target desk: turn 2: HTTP target "desk": POST \/sessions\/s1\/turns answered 500: /);
    expect(trial.trace.steps!.length).toBe(2);
    expect(trial.usage.target.calls).toBe(2);
  });
});

describe('multi-turn YAML cases over a model-agent target', () => {
  it('continues one conversation with the model across turns', async () => {
    const fake = await startFakeAnthropic({
      script: (body: any) => ({ text: `turn ${body.messages.filter((m: any) => m.role === 'user').length}`, usage: { input: 20, output: 4 } }),
    });
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-dummy-000000');
    try {
      const yaml = `suite: m\ntarget: claude\ncases:\n  - id: c\n    turns:\n      - input: one\n        assert: [{ type: equals, value: turn 1 }]\n      - input: two\n        assert: [{ type: equals, value: turn 2 }]\n`;
      const { results, exitCode } = await runInProcess({
        files: { 'evals/m.eval.yaml': yaml },
        config: { targets: { claude: { model: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url }, instructions: 'Be brief.' } } },
      });
      expect(exitCode).toBe(0);
      const trial = results.cases[0]!.trials[0]!;
      expect(trial.assertions.map((a) => [a.turn, a.status])).toEqual([
        [1, 'passed'],
        [2, 'passed'],
      ]);
      expect(trial.trace).toMatchObject({ instructions: 'Be brief.', stopReason: 'stop' });
      expect(trial.usage.target).toMatchObject({ calls: 2, inputTokens: 40, outputTokens: 8 });
      // The second request carried the whole conversation: one, turn 1, two.
      expect(fake.bodies[1].messages.map((m: any) => [m.role, JSON.stringify(m.content)])).toEqual([
        ['user', expect.stringContaining('one')],
        ['assistant', expect.stringContaining('turn 1')],
        ['user', expect.stringContaining('two')],
      ]);
    } finally {
      await fake.close();
      vi.unstubAllEnvs();
    }
  });
});

describe('t.send in a TypeScript check', () => {
  it('continues the conversation; assertions after a send check the new turn', async () => {
    const evalTs = `
      export default {
        suite: 'chat',
        target: 'bot',
        cases: [{
          id: 'follow-up',
          input: 'hello',
          check: async (t) => {
            t.equals('#1 hello');
            const second = await t.send('and again');
            if (second !== '#2 and again (2 user turns so far)') throw new Error('unexpected reply: ' + second);
            t.equals('#2 and again (2 user turns so far)');
            t.calledTool('count');
            t.expect('turn number', () => t.turn === 2);
          },
        }],
      };
    `;
    const bot = async (input: string, ctx: any) => {
      const users = await ctx.tool('count', {}, () => ctx.messages.filter((m: any) => m.role === 'user').length);
      return ctx.turn === 1 ? `#1 ${input}` : `#${ctx.turn} ${input} (${users} user turns so far)`;
    };
    const { results, exitCode } = await runInProcess({ files: { 'evals/chat.eval.ts': evalTs }, config: { evals: ['evals/*.eval.ts'], targets: { bot } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    expect(trial.assertions.map((a) => [a.kind, a.turn, a.status])).toEqual([
      ['equals', 1, 'passed'],
      ['equals', 2, 'passed'],
      ['calledTool', 2, 'passed'],
      ['custom', 2, 'passed'],
    ]);
    expect(trial.reply).toBe('#2 and again (2 user turns so far)');
    expect(trial.trace.steps).toHaveLength(2);
    expect(exitCode).toBe(0);
  });
});
