/**
 * The lean judge prompt, as the fake servers receive it through the real SDKs: a one-rubric
 * judgment of a plain reply stays under 1,000 characters of message text (system + user; it was
 * 1,872, in a 2,668-byte request body, before the schema left the prompt, the trace became
 * compact JSON, the reply was sent once and zero or unasked usage was dropped). The stable parts
 * come first, so two trials of one assertion share every byte up to what is their own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { promptJudge } from '../../src/judges/prompt-judge.js';
import { TRACE_CLOSE, TRACE_OPEN } from '../../src/judges/trace-render.js';
import { criterionAsksAboutUsage } from '../../src/judges/usage-relevance.js';
import type { Criterion } from '../../src/core/judge-port.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { count, judgeRef, oneRubricYaml, judgeService, plannedCase, sampleRun, splitPrompt, systemText, trialContext, userText, type ProviderName } from './helpers.js';
import { TEST_ENV, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();
afterAll(removeTempDirs);

const REPLY = 'Your order A1049 shipped yesterday and arrives on Friday.';
const TARGET_MODEL: Record<ProviderName, string> = { openai: 'gpt-4.1-nano', anthropic: 'claude-haiku-4-5' };

/** A judge request is the one that asks for structured output; the model agent's is plain chat. */
const isJudge = (body: any) => body.response_format !== undefined || body.tool_choice?.type === 'tool';

/**
 * The bench's workload, in-process: a model agent on the fake server answers with a plain reply
 * (its step carries the text and usage, zero counts included), and one rubric judges it.
 */
async function plainRun(provider: ProviderName, opts: { criteria?: string; replies?: string[]; repeat?: number } = {}) {
  const replies = opts.replies ?? [REPLY];
  let target = 0;
  const fake: FakeProvider = await fakes[provider]((body) =>
    isJudge(body) ? { json: { score: 1, reason: 'names the day', evidence: [] } } : { text: replies[target++ % replies.length]!, usage: { input: 30, output: 12 } },
  );
  const model = { provider, model: TARGET_MODEL[provider], baseURL: fake.url };
  const run = await runInProcess({
    files: { 'evals/lean.eval.yaml': oneRubricYaml('lean', opts.criteria ?? 'Says when the order arrives.') },
    config: { targets: { agent: { model, instructions: 'You answer order questions briefly.' } }, judge: judgeRef(provider, fake.url), concurrency: 1 },
    flags: { earlyStop: false },
    selection: { repeat: opts.repeat ?? 1 },
    env: { ...TEST_ENV },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { ...TEST_ENV } }),
  });
  expect(run.exitCode, JSON.stringify(run.results.cases[0]?.trials.map((t) => t.assertions))).toBe(0);
  return { fake, run, judged: fake.requests.filter((r) => isJudge(r.body)) };
}

/** The untrusted block's opening delimiter and its line break, inside a JSON string of the raw body. */
const RAW_OPENER = JSON.stringify(`${TRACE_OPEN}\n`).slice(1, -1);

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe.each(['openai', 'anthropic'] as const)('a one-rubric judgment of a plain reply over %s', (provider) => {
  it('is at most 1,000 characters of message text: no schema in the prompt, compact JSON, the reply once, no usage', async () => {
    const { judged } = await plainRun(provider);
    expect(judged).toHaveLength(1);
    const body = judged[0]!.body;
    const system = systemText(body);
    const user = userText(body);
    expect(system.length + user.length).toBeLessThanOrEqual(1000);

    // The schema is enforced by the request, not spelled out in the prompt.
    if (provider === 'openai') expect(body.response_format.json_schema).toMatchObject({ name: 'rubric_judgment', strict: true });
    else expect(body.tools.find((t: any) => t.name === 'rubric_judgment').input_schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(user).not.toMatch(/JSON Schema|additionalProperties/);

    // One untrusted block, compact, the reply in it once; the step that only said it is gone.
    expect(count(user, TRACE_OPEN)).toBe(1);
    expect(count(user, TRACE_CLOSE)).toBe(1);
    expect(count(system + user, REPLY)).toBe(1);
    const { block } = splitPrompt(user);
    const inside = user.slice(user.indexOf(TRACE_OPEN) + TRACE_OPEN.length, user.indexOf(TRACE_CLOSE));
    expect(inside.trim()).not.toContain('\n');
    // Nothing else to show: no tool call (so no policy), a plain stop, no usage asked for.
    expect(block).toEqual({ output: REPLY });
  });

  it('two trials with different replies share every request byte up to the untrusted block', async () => {
    const replies = ['Your order A1049 arrives on Friday.', 'Order A1049 is on its way; expect it Monday.'];
    const { judged } = await plainRun(provider, { replies, repeat: 2 });
    expect(judged).toHaveLength(2);
    const [a, b] = judged.map((r) => r.rawBody) as [string, string];
    expect(a).not.toBe(b);
    // The block's opener, as the JSON body spells it (the system rule names the delimiter too, but
    // not at the start of a line); anything the target wrote is escaped (`\u003c`) inside the block.
    const opener = a.indexOf(RAW_OPENER);
    expect(opener).toBeGreaterThan(a.indexOf('<input>'));
    expect(b.indexOf(RAW_OPENER)).toBe(opener);
    expect(commonPrefix(a, b)).toBeGreaterThanOrEqual(opener + RAW_OPENER.length);
  });
});

describe('token usage in the trace', () => {
  it('is shown, non-zero counts only, when the criterion asks about cost or length', async () => {
    const { judged } = await plainRun('openai', { criteria: 'Answers in as few tokens as possible.' });
    const { block } = splitPrompt(userText(judged[0]!.body));
    // The reply is still sent once: the step keeps only its usage.
    expect(block.trace.steps).toEqual([{ step: 1, usage: { inputTokens: 30, outputTokens: 12 } }]);
  });

  it('is asked about by words of cost or length in the criterion, never by a reference-only criterion', () => {
    const rubric = (criteria: string, dimensions: string[] = []): Criterion => ({ kind: 'rubric', criteria, scale: 1, dimensions });
    expect(criterionAsksAboutUsage(rubric('Keeps the answer concise.'))).toBe(true);
    expect(criterionAsksAboutUsage(rubric('Stays within the budget.'))).toBe(true);
    expect(criterionAsksAboutUsage(rubric('Is polite.', ['efficiency']))).toBe(true);
    expect(criterionAsksAboutUsage(rubric('Is polite and names the day.'))).toBe(false);
    expect(criterionAsksAboutUsage({ kind: 'closedQa', question: 'Is the reply short?' })).toBe(true);
    expect(criterionAsksAboutUsage({ kind: 'pairwise', criteria: 'Which is cheaper to run?', first: 'a', second: 'b' })).toBe(true);
    expect(criterionAsksAboutUsage({ kind: 'factuality', reference: 'It costs 5 tokens.' })).toBe(false);
    expect(criterionAsksAboutUsage({ kind: 'sql', reference: 'SELECT length(name) FROM t' })).toBe(false);
  });
});

describe('the stable prefix', () => {
  it('a conversation that differs per trial comes after the task, criteria and target instructions', async () => {
    const f = await fakes.openai(() => ({ json: { score: 1, reason: 'fine', evidence: [] } }));
    const service = judgeService({ judge: judgeRef('openai', f.url) });
    const spec = { type: 'judge' as const, criteria: 'CRITERIA: answers the follow-up' };
    for (const followUp of ['TURN-3: and when will it arrive?', 'TURN-3: can I change the address?']) {
      const ctx = trialContext(plannedCase(), sampleRun());
      ctx.transcript = [
        { role: 'user', content: 'TURN-1: where is order 4711?' },
        { role: 'assistant', content: 'TURN-2: it shipped yesterday.' },
        { role: 'user', content: followUp },
        { role: 'assistant', content: 'REPLY' },
      ];
      await service.grade(spec, ctx);
    }
    const [a, b] = f.requests.map((r) => r.rawBody) as [string, string];
    const shared = a.slice(0, commonPrefix(a, b));
    for (const stable of ['<task>', 'CRITERIA: answers the follow-up', '<target-instructions>', '<transcript>', 'TURN-1']) expect(shared).toContain(stable);
    expect(shared).not.toMatch(/arrive|address/);
  });

  it('on Anthropic, a prefix long enough to cache is marked with cache_control and cached tokens are reported', async () => {
    // claude-haiku-4-5 caches from 4,096 tokens: criteria of ~20,000 characters are surely that long.
    const criteria = `CRITERIA-LONG: ${'The reply names the carrier, the day and the tracking number. '.repeat(320)}`;
    const f = await fakes.anthropic(() => ({ json: { score: 1, reason: 'fine', evidence: [] }, usage: { input: 60, output: 20, cached: 5000 } }));
    const service = judgeService({ judge: judgeRef('anthropic', f.url) });
    const { result, usage } = await service.grade({ type: 'judge', criteria }, trialContext(plannedCase(), sampleRun()));
    expect(result.status).toBe('passed');
    const content = f.bodies[0].messages[0].content as any[];
    expect(content).toHaveLength(2);
    expect(content[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
    expect(content[0].text).toContain('CRITERIA-LONG');
    expect(content[0].text).toContain('<input>');
    expect(content[1].text.startsWith(TRACE_OPEN)).toBe(true);
    expect(content[1].cache_control).toBeUndefined();
    expect(usage).toMatchObject({ inputTokens: 5060, cachedInputTokens: 5000 });

    // A short one is not: the text goes as one plain string.
    await service.grade({ type: 'judge', criteria: 'CRITERIA: short' }, trialContext(plannedCase(), sampleRun()));
    expect(typeof f.bodies[1].messages[0].content).toBe('string');
    expect(f.requests[1]!.rawBody).not.toContain('cache_control');
  });
});

describe('a prompt judge (plain text answers)', () => {
  it('still gets the JSON Schema of the answer in its prompt, before the untrusted block', async () => {
    const prompts: string[] = [];
    const judge = promptJudge((prompt) => (prompts.push(prompt), '{"score": 1, "reason": "names the day"}'));
    const run = { reply: REPLY, steps: [{ text: REPLY }] };
    const score = await judge.judge({ criterion: { kind: 'rubric', criteria: 'Says when.', scale: 1, dimensions: [] }, output: REPLY, input: 'Where?', run, tracePolicy: 'safe' });
    expect(score.score).toBe(1);
    const [prompt] = prompts as [string];
    const schemaAt = prompt.indexOf('Respond with only a JSON object that matches this JSON Schema:');
    expect(schemaAt).toBeGreaterThan(-1);
    expect(prompt).toContain('"required":["score","reason","evidence"]');
    expect(schemaAt).toBeLessThan(prompt.lastIndexOf(TRACE_OPEN));
  });
});
