/**
 * The start-up key check covers the user models of simulated-user cases (built CLI): a missing key
 * stops the run with exit 2 before any target runs, naming the eval file, the case's line, the field
 * that chose the model (`simulatedUser.model`, else `simulatedUser` and the judge it fell back to)
 * and the variable. A dry run and a run with the key go ahead. The CLI's `main` runs in-process: the
 * commands are the subject, not the binary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCountFile, removeTempDirs, STACK_FRAME, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

const servers: FakeProvider[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  removeTempDirs();
});

/** A function target (a simulated user needs a conversation) that records each turn it answers in COUNT_FILE. */
const CONFIG = `import { appendFileSync } from 'node:fs';
export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  targets: { desk: (input, ctx) => { appendFileSync(process.env.COUNT_FILE, ctx.turn + '\\n'); return 'Booked: ' + input; } },
  JUDGE
};
`;

const simulatedCase = (id: string, model: string) => `  - id: ${id}
    simulatedUser:
      goal: Book a table for two on Friday.
${model}      maxTurns: 3
    assert:
      - { type: contains, value: Booked }
`;

/** `cases` gets the fake OpenAI server's URL: the user model's one message, then done. */
async function project(judge: string, cases: (url: string) => string) {
  let asked = 0;
  const fake = await startFakeOpenAI({ script: () => ({ json: asked++ === 0 ? { done: false, goalMet: false, message: 'Friday, two people.' } : { done: true, goalMet: true, message: '' } }) });
  servers.push(fake);
  const dir = tempDir();
  const countFile = join(dir, 'calls.txt');
  writeFileSync(join(dir, 'evals.config.mjs'), CONFIG.replace('JUDGE', judge));
  writeFileSync(join(dir, 'booking.eval.yaml'), `suite: booking\ntarget: desk\ncases:\n${cases(fake.url)}`);
  const base = { COUNT_FILE: countFile, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined };
  return {
    fake,
    run: (args: string[], env: Record<string, string | undefined> = {}) => runCliInProcess(args, { cwd: dir, env: { ...base, ...env } }),
    calls: () => readCountFile(countFile),
  };
}

describe('the API-key check covers every user model a planned case uses', () => {
  it("a case's own simulatedUser.model: file, line, field and variable; exit 2; no target or model called", async () => {
    const own = (url: string) => `      model: { provider: openai, model: gpt-4.1-mini, baseURL: "${url}" }\n`;
    const p = await project(`judge: 'fake',`, (url) => simulatedCase('friday', own(url)) + simulatedCase('saturday', own(url)));
    const r = await p.run(['run']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr.trim()).toBe('agent-evals: booking.eval.yaml:4: simulatedUser.model: OPENAI_API_KEY is not set: needed by the user model of booking/friday, booking/saturday');
    expect(p.calls(), 'a target ran despite the missing key').toEqual([]);
    expect(p.fake.count).toBe(0);

    // With the key set the user model is called and the conversation runs.
    const ok = await p.run(['run', '--filter', 'booking/friday', '--json'], { OPENAI_API_KEY: 'test-key' });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(p.calls()).toEqual(['1']);
    expect(p.fake.count).toBe(2);

    // A re-judge replays the recorded user messages: it needs no user-model key.
    const rejudged = await p.run(['rejudge', '.out/results.json']);
    expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(0);
    expect(p.fake.count).toBe(2);
    expect(p.calls()).toEqual(['1']);
  });

  it('no simulatedUser.model: the judge it falls back to is named, at the case that fell back', async () => {
    const p = await project(
      `judge: { provider: 'anthropic', model: 'claude-haiku-4-5' },`,
      () => `  - id: plain\n    input: hi\n    assert: [{ type: contains, value: Booked }]\n${simulatedCase('friday', '')}`,
    );
    const r = await p.run(['run']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      'agent-evals: booking.eval.yaml:7: simulatedUser: ANTHROPIC_API_KEY is not set: needed by the user model (no simulatedUser.model: the config judge) of booking/friday',
    );
    expect(p.calls()).toEqual([]);
    // Only the plain case selected: its contains assertion needs no key, so the run goes ahead.
    const plain = await p.run(['run', '--filter', 'booking/plain']);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(p.calls()).toEqual(['1']);
  });
});
