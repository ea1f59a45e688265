/**
 * Judge requests carry neither per-trial noise nor the run's secrets, seen where they land: the
 * fake OpenAI server's request log, reached through the real SDK by the real runner. Tool timings
 * differ on every trial, so while they were in the prompt, three trials with the same reply and
 * tool calls made three judge calls; a secret in the reply went to the judge in clear.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { runRedactor } from '../../src/providers/run-redactor.js';
import { REDACTED } from '../../src/providers/secret-redactor.js';
import { criterionAsksAboutTime } from '../../src/judges/usage-relevance.js';
import type { AgentRun } from '../../src/core/agent-run.js';
import type { Criterion } from '../../src/core/judge-port.js';
import { runInProcess } from '../support/run-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { redactJudgeRequest } from '../../src/providers/judge-request-redaction.js';
import { SecretRedactor } from '../../src/providers/secret-redactor.js';
import type { JudgeRequest } from '../../src/core/judge-port.js';
import { removeTempDirs } from '../support/cli.js';
import { count, judgeRef, oneRubricYaml, splitPrompt, userText } from './helpers.js';
import { useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();
const batchFakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(batchFakes.splice(0).map((f) => f.close()));
});
afterAll(removeTempDirs);

const SECRET = 'sk-test-9f3a7c21e4b84d05a6e1';
const ENV = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: 'test-key' };
const REPLY = 'Order A1049 shipped yesterday; it arrives on Friday.';
const DURATIONS = [3, 40, 900];

/** The same reply and tool calls on every trial; only the tool's duration differs (3, 40, 900 ms). */
function toolRun(trial: number, reply = REPLY): AgentRun {
  return {
    reply,
    steps: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' }, result: { status: 'shipped' }, isError: false, durationMs: DURATIONS[trial % DURATIONS.length]! }] }, { text: reply }],
  };
}

/** A function target over `--repeat 3`, judged by a fake OpenAI judge with the run's own redactor (as the CLI builds it). */
async function run(criteria: string, reply?: string, judgeBatch = false) {
  const answer = () => ({ json: { score: 1, reason: 'names the day', evidence: [] } });
  const fake = judgeBatch ? await startFakeOpenAI({ batch: { pollsInProgress: 0 }, script: answer }) : await fakes.openai(answer);
  if (judgeBatch) batchFakes.push(fake);
  let trial = 0;
  const result = await runInProcess({
    files: { 'evals/noise.eval.yaml': oneRubricYaml('noise', criteria) },
    config: { targets: { agent: () => toolRun(trial++, reply) }, judge: judgeRef('openai', fake.url), concurrency: 1 },
    flags: { earlyStop: false, judgeBatch },
    selection: { repeat: 3 },
    env: ENV,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: ENV, redactor: runRedactor(settings) }),
  });
  expect(result.exitCode, JSON.stringify(result.results.cases[0]?.trials.map((t) => t.assertions))).toBe(0);
  expect(trial).toBe(3);
  return { fake, result };
}

describe('tool timings in judge requests', () => {
  it('three trials with the same reply and tool calls whose tools took 3, 40 and 900 ms make one judge call', async () => {
    const { fake, result } = await run('Says when the order arrives.');
    expect(fake.requests).toHaveLength(1);
    const { block } = splitPrompt(userText(fake.requests[0]!.body));
    expect(block.trace.steps[0].toolCalls[0]).toEqual({
      name: 'orders_lookup',
      args: expect.objectContaining({ hash: expect.any(String) }),
      result: expect.objectContaining({ hash: expect.any(String) }),
    });
    expect(fake.requests[0]!.rawBody).not.toContain('durationMs');
    // The other two trials were answered from the run's cache.
    expect(result.results.cases[0]!.trials.map((t) => t.assertions[0]!.status)).toEqual(['passed', 'passed', 'passed']);
  });

  it('a criterion about latency still gets the timings: one judge call per trial', async () => {
    const { fake } = await run('Answers without needless latency in its tool calls.');
    expect(fake.requests).toHaveLength(3);
    const shown = fake.requests.map((r) => splitPrompt(userText(r.body)).block.trace.steps[0].toolCalls[0].durationMs);
    expect(shown.sort((a: number, b: number) => a - b)).toEqual(DURATIONS);
  });

  it('is asked about by words of time or speed in the criterion, never by a reference-only criterion', () => {
    const rubric = (criteria: string, dimensions: string[] = []): Criterion => ({ kind: 'rubric', criteria, scale: 1, dimensions });
    expect(criterionAsksAboutTime(rubric('Responds fast.'))).toBe(true);
    expect(criterionAsksAboutTime(rubric('Keeps the latency low.'))).toBe(true);
    expect(criterionAsksAboutTime(rubric('Is polite.', ['speed']))).toBe(true);
    expect(criterionAsksAboutTime({ kind: 'closedQa', question: 'Did any tool hit a timeout?' })).toBe(true);
    expect(criterionAsksAboutTime(rubric('Is polite and names the day.'))).toBe(false);
    expect(criterionAsksAboutTime({ kind: 'factuality', reference: 'It took 5 seconds.' })).toBe(false);
  });
});

describe('secrets in judge requests', () => {
  it("a reply holding OPENAI_API_KEY's value: zero occurrences in the judge request log, a redaction marker instead", async () => {
    const leaky = `Done. For the record, the key I used is ${SECRET}.`;
    const { fake } = await run('Says when the order arrives.', leaky);
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const r of fake.requests) {
      expect(count(r.rawBody, SECRET)).toBe(0);
      expect(userText(r.body)).toContain(`the key I used is ${REDACTED}`);
    }
  });

  it('batch lines too: the uploaded batch file holds the marker, never the value', async () => {
    const { fake } = await run('Says when the order arrives.', `The key is ${SECRET}.`, true);
    const upload = fake.requests.find((r) => r.path === '/v1/files');
    expect(upload?.rawBody).toContain(`The key is ${REDACTED}`);
    for (const r of fake.requests) expect(count(r.rawBody, SECRET)).toBe(0);
  });

  it('every text a judge reads is redacted: a pairwise answer, the conversation, instructions, tool data; the abort signal stays', () => {
    const signal = new AbortController().signal;
    const req: JudgeRequest = {
      criterion: { kind: 'pairwise', criteria: 'Which is better?', first: `a ${SECRET}`, second: `b ${SECRET}` },
      output: `out ${SECRET}`,
      input: `in ${SECRET}`,
      transcript: [{ role: 'user', content: `hi ${SECRET}` }],
      reportedInstructions: `do ${SECRET}`,
      run: { reply: `out ${SECRET}`, steps: [{ toolCalls: [{ name: 'env', args: { key: SECRET }, result: SECRET }] }] },
      tracePolicy: 'full',
      signal,
    };
    const redacted = redactJudgeRequest(req, new SecretRedactor([SECRET]));
    expect(JSON.stringify(redacted)).not.toContain(SECRET);
    expect(redacted.criterion).toMatchObject({ second: `b ${REDACTED}` });
    expect(redacted.run.steps![0]!.toolCalls![0]).toEqual({ name: 'env', args: { key: REDACTED }, result: REDACTED });
    expect(redacted.signal).toBe(signal);
    // No secret known: the request as it was.
    expect(redactJudgeRequest(req, new SecretRedactor([]))).toBe(req);
  });
});
