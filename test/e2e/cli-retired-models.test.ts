/**
 * A run warns, before its first trial, about each model the capability table says has shut down:
 * a model target, a judge, a simulated user's model and an embedding model, one line per model, with
 * its date and who uses it; the run goes on; `run --estimate` prints the same lines, calling nothing; `rejudge` and `calibrate` warn about their judges. The built CLI (its `main`, in-process) against a fake
 * OpenAI server, with the worker's clock set (only `Date`) before and after the table's dates, so
 * the test does not depend on today's date. Needs dist/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { familyRow } from '../../src/providers/capability-lookup.js';
import { openAIEmbeddingRow } from '../../src/providers/embedding-models.js';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { writeProject } from '../support/temp-project.js';

/** Three table rows with shutdown dates (read from the table, so a corrected date moves the clocks too). */
const TARGET = 'gpt-4.1-mini';
const JUDGE = 'gpt-4.1-nano';
const USER = 'gpt-4o-mini';
const shutdownOf = (model: string) => familyRow('openai', model)!.shutdown!;
const dayBefore = (day: string) => new Date(Date.parse(day) - 86_400_000);
const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000);

const VERDICT: Scripted = { json: { answer: 'yes', reason: 'It says booked.', evidence: ['Booked'] }, usage: { input: 50, output: 10 } };

/** The judge answers its verdict, the user model opens and then ends the conversation, the target books. */
function script(body: any): Scripted {
  if (body.model === JUDGE) return body.response_format?.json_schema?.schema?.properties?.score ? { json: { score: 7, reason: 'Fine.', evidence: [] } } : VERDICT;
  if (body.model === USER) return { json: { done: body.messages.length > 2, goalMet: true, message: body.messages.length > 2 ? '' : 'A table for two?' } };
  return { text: 'Booked.' };
}

const CONFIG = `export default {
  outputDir: '.out',
  targets: { writer: { model: 'openai:${TARGET}', instructions: 'You book tables.' } },
  judge: 'openai:${JUDGE}',
  embeddingModel: 'openai:text-embedding-3-small',
};
`;
const EVAL = `suite: booking
target: writer
cases:
  - id: one-turn
    input: Book a table.
    assert:
      - { type: closedQa, question: Does it say booked? }
      - { type: similarTo, value: Booked., threshold: 0.1 }
  - id: conversation
    simulatedUser:
      goal: Book a table for two.
      model: openai:${USER}
      maxTurns: 3
    assert: [{ type: contains, value: Booked }]
`;

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});
afterEach(() => {
  vi.useRealTimers();
});

const ENV = () => ({ OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined });

/** `agent-evals <args>` in `dir` with the worker's clock at `now`. */
function cliAt(now: Date, dir: string, args: string[]) {
  vi.useFakeTimers({ toFake: ['Date'], now });
  return runCliInProcess(args, { cwd: dir, env: ENV() });
}

async function runAt(now: Date, args: string[] = []) {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/booking.eval.yaml': EVAL });
  const r = await cliAt(now, dir, ['run', '--json', 'results.json', ...args]);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  return { ...r, dir, warnings: (results.summary.warnings as string[]).filter((w) => w.includes(' shut down on ')) };
}

/** The terminal's lines that warn about a model that shut down (printed before the run's header). */
const shutDownLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes(' shut down on '));

describe('run: models the capability table says have shut down', () => {
  it('none before every shutdown date; after each, one line per model (target, judge, user model) naming its date and who uses it; the run goes on', async () => {
    const dates = [TARGET, JUDGE, USER].map(shutdownOf).sort();
    const before = await runAt(dayBefore(dates[0]!));
    expect(before.code, before.stdout + before.stderr).toBe(0);
    expect(shutDownLines(before.stdout)).toEqual([]);
    expect(before.warnings).toEqual([]);

    const r = await runAt(dayAfter(dates.at(-1)!));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = shutDownLines(r.stdout);
    expect(lines).toHaveLength(3);
    const line = (model: string) => lines.find((l) => l.includes(`openai:${model} shut down on ${shutdownOf(model)}`));
    expect(line(TARGET)).toMatch(/used by target "writer": the run goes on/);
    expect(line(JUDGE)).toMatch(/used by config judge: the run goes on/);
    expect(line(USER)).toMatch(/used by the user model \(simulatedUser\.model\) in evals\/booking\.eval\.yaml: the run goes on/);
    // The embedding model is called too, but its table gives it no date.
    expect(openAIEmbeddingRow('text-embedding-3-small')?.shutdown).toBeUndefined();
    expect(r.stdout).not.toMatch(/text-embedding-3-small shut down/);
    // The results keep the same warnings, once each.
    expect(r.warnings).toHaveLength(3);
  });

  it('between the dates: only the models whose day has come', async () => {
    const first = [TARGET, JUDGE, USER].map(shutdownOf).sort()[0]!;
    const r = await runAt(dayAfter(first));
    const passed = [TARGET, JUDGE, USER].filter((m) => shutdownOf(m) <= first);
    expect(passed.length).toBeLessThan(3);
    expect(shutDownLines(r.stdout).map((l) => /openai:\S+/.exec(l)![0])).toEqual(passed.map((m) => `openai:${m}`));
  });

  it('--strict does not change the exit code: the warning is a warning', async () => {
    const r = await runAt(dayAfter([TARGET, JUDGE, USER].map(shutdownOf).sort().at(-1)!), ['--strict']);
    expect(shutDownLines(r.stdout)).toHaveLength(3);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('a dry run calls no model and warns about none (a live run that day does)', async () => {
    const after = dayAfter([TARGET, JUDGE, USER].map(shutdownOf).sort().at(-1)!);
    expect(shutDownLines((await runAt(after)).stdout)).toHaveLength(3);
    expect(shutDownLines((await runAt(after, ['--dry-run'])).stdout)).toEqual([]);
  });

  it('run --estimate prints the warnings the run would, before the estimate, without a request and without a key', async () => {
    const after = dayAfter([TARGET, JUDGE, USER].map(shutdownOf).sort().at(-1)!);
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/booking.eval.yaml': EVAL });
    const before = fake.count;
    vi.useFakeTimers({ toFake: ['Date'], now: after });
    const r = await runCliInProcess(['run', '--estimate'], { cwd: dir, env: { ...ENV(), OPENAI_API_KEY: undefined } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(before);
    const lines = shutDownLines(r.stdout);
    expect(lines).toHaveLength(3);
    const line = (model: string) => lines.find((l) => l.includes(`openai:${model} shut down on ${shutdownOf(model)}`));
    expect(line(TARGET)).toMatch(/^warning .*used by target "writer": the run goes on/);
    expect(line(JUDGE)).toMatch(/used by config judge: the run goes on/);
    expect(line(USER)).toMatch(/used by the user model \(simulatedUser\.model\) in evals\/booking\.eval\.yaml: the run goes on/);
    // Before the estimate's own text.
    expect(r.stdout.indexOf(lines.at(-1)!)).toBeLessThan(r.stdout.indexOf('nothing was called'));
    // The same lines as the run's that day.
    expect(shutDownLines((await runAt(after)).stdout).map((l) => l.slice(l.indexOf('openai:')))).toEqual(lines.map((l) => l.slice(l.indexOf('openai:'))));
    // Before the first date, none.
    vi.useFakeTimers({ toFake: ['Date'], now: dayBefore([TARGET, JUDGE, USER].map(shutdownOf).sort()[0]!) });
    const quiet = await runCliInProcess(['run', '--estimate'], { cwd: dir, env: ENV() });
    expect(shutDownLines(quiet.stdout)).toEqual([]);
  });

  it('rejudge warns about the judges only (no target or user model is called); calibrate about its judge', async () => {
    const dates = [TARGET, JUDGE, USER].map(shutdownOf).sort();
    const recorded = await runAt(dayBefore(dates[0]!));
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    const after = dayAfter(dates.at(-1)!);
    const rejudged = await cliAt(after, recorded.dir, ['rejudge', 'results.json', '--no-cache']);
    expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(0);
    expect(shutDownLines(rejudged.stdout + rejudged.stderr)).toEqual([expect.stringMatching(new RegExp(`openai:${JUDGE} shut down on ${shutdownOf(JUDGE)} .*used by config judge:`))]);

    const dir = writeProject({ 'evals.config.mjs': 'export default {};\n', 'labels.jsonl': JSON.stringify({ id: 'a', input: 'Book a table.', output: 'Booked.', humanScore: 7 }) + '\n' });
    const calibrated = await cliAt(after, dir, ['calibrate', 'labels.jsonl', '--judge', `openai:${JUDGE}`, '--criteria', 'Says booked.', '--scale', '10', '--no-cache']);
    expect(calibrated.code, calibrated.stdout + calibrated.stderr).toBe(0);
    expect(shutDownLines(calibrated.stderr)).toEqual([expect.stringMatching(new RegExp(`openai:${JUDGE} shut down on ${shutdownOf(JUDGE)} .*used by --judge:`))]);
  });
});
