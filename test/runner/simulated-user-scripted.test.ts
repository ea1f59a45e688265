/**
 * The `fake` user model with fixtures scripts a simulated user offline: the fixtures' user entries
 * give each matched case its messages, the goal met once the agent's reply says so (`goalMetWhen`),
 * or the end after the last message (`then`). The same fixtures file holds the fake judge's answers.
 * Bad fixtures stop the run before any target (the built CLI's `main` in-process; needs dist/).
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { join } from 'node:path';
import { readCountFile, removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { resolveConfig } from '../../src/config/load-config.js';
import { resolveRunSettings } from '../../src/config/run-settings.js';
import { planCases } from '../../src/cli/prepare.js';
import { openRun } from '../../src/runner/start-run.js';
import type { CaseResult } from '../../src/core/results-schema.js';

afterEach(removeTempDirs);

/** A booking desk: books once it is told the time, and gives a reference number then. */
const desk: TargetFunction = (input) => (/7pm/i.test(input) ? 'Booked for Friday 7pm, reference number R-17.' : `Noted: ${input}`);

const FIXTURES = `# user entries script the fake user model; score entries answer the fake judge
- case: booking/friday
  user: [Table for two on Friday?, At 7pm please., This message is never sent.]
  goalMetWhen: Reference Number
- case: booking/refund
  user: [I want my deposit back., 'Now, please.']
  then: gave-up
- case: booking/*
  type: judge
  score: 0.3
  reason: fixture answer
`;

const EVALS = `suite: booking
target: desk
cases:
  - id: friday
    simulatedUser: { goal: Book a table for two on Friday at 7pm., maxTurns: 5 }
    assert: [{ type: judge, criteria: The agent booked the table. }]
  - id: refund
    simulatedUser: { goal: Get the deposit back., maxTurns: 5 }
    assert: [{ type: contains, value: Noted }]
  - id: unscripted
    simulatedUser: { goal: Ask for the menu., maxTurns: 5 }
    assert: [{ type: contains, value: Noted }]
  - id: short
    simulatedUser: { goal: Book a table., maxTurns: 1, model: { provider: fake, fixtures: other.yaml } }
    assert: [{ type: contains, value: Noted }]
`;

async function run(files: Record<string, string>, config: Partial<UserConfig> = {}) {
  const { results } = await runInProcess({
    files,
    config: { targets: { desk }, judge: { provider: 'fake', fixtures: 'fixtures.yaml' }, ...config },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps }),
  });
  return Object.fromEntries(results.cases.map((c) => [c.id, c.trials[0]!]));
}

describe('a scripted fake user model', () => {
  it('sends the scripted messages and ends as the fixtures say, deterministic, at no cost', async () => {
    const files = { 'fixtures.yaml': FIXTURES, 'other.yaml': '- user: [Any table tonight?, at 7pm]\n', 'evals/booking.eval.yaml': EVALS };
    const t = await run(files);
    // The goal is met as soon as the reply gives a reference number: the third message is never sent.
    expect(t.friday!.turns!.map((x) => [x.input, x.reply])).toEqual([
      ['Table for two on Friday?', 'Noted: Table for two on Friday?'],
      ['At 7pm please.', 'Booked for Friday 7pm, reference number R-17.'],
    ]);
    expect(t.friday!.simulatedUser).toEqual({ stopped: 'goal-met' });
    expect(t.friday!.usage.user).toMatchObject({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
    // The same file's judge entry answered the judge.
    expect(t.friday!.assertions[0]).toMatchObject({ status: 'failed', score: 0.3 });
    // All messages sent, then the user gives up.
    expect(t.refund!.turns!.map((x) => x.input)).toEqual(['I want my deposit back.', 'Now, please.']);
    expect(t.refund!.simulatedUser).toEqual({ stopped: 'gave-up' });
    // No user entry matches: the plain fake (the goal as its one message).
    expect(t.unscripted!.turns!.map((x) => x.input)).toEqual(['Ask for the menu.']);
    expect(t.unscripted!.simulatedUser).toEqual({ stopped: 'goal-met' });
    // The case's own fake with fixtures; maxTurns ends it before the script does.
    expect(t.short!.turns!.map((x) => x.input)).toEqual(['Any table tonight?']);
    expect(t.short!.simulatedUser).toEqual({ stopped: 'max-turns' });

    // Offline and deterministic: a second run holds the same conversations.
    const again = await run(files);
    const said = (x: typeof t) => Object.values(x).map((trial) => [trial.simulatedUser, trial.turns!.map((turn) => [turn.input, turn.reply])]);
    expect(said(again)).toEqual(said(t));
  });

  it('the run scripts its users from the fixtures the check before it read: the file is read once', async () => {
    const dir = writeProject({
      'fixtures.yaml': '- case: booking/friday\n  user: [Table at 7pm?]\n  goalMetWhen: reference\n',
      'evals/booking.eval.yaml':
        'suite: booking\ntarget: desk\ncases:\n  - id: friday\n    simulatedUser: { goal: Book., maxTurns: 2, model: { provider: fake, fixtures: fixtures.yaml } }\n    assert: [{ type: contains, value: Booked }]\n',
    });
    const config = resolveConfig({ evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { desk } }, dir, 'evals.config.ts');
    const { cases } = await planCases(config, [], {}, dir);
    const run = openRun(resolveRunSettings(config, {}, {}), cases, 'run');
    // Changed after the check: a second read would fail every trial (not valid) or script another user.
    writeFileSync(join(dir, 'fixtures.yaml'), '- case: booking/friday\n  user: [Any table?]\n  score: 1\n');
    const ended: CaseResult[] = [];
    const outcome = await run.start({ reporters: [{ onCaseEnd: (r) => void ended.push(r) }], interrupt: new AbortController().signal, argv: [], version: 'test' });
    expect(outcome.exitCode).toBe(0);
    const trial = ended[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    expect(trial.turns!.map((t) => t.input)).toEqual(['Table at 7pm?']);
    expect(trial.simulatedUser).toEqual({ stopped: 'goal-met' });
  });

  it('a misspelt key in a fixtures entry is exit 2 naming the entry and the key (it said "0: Unrecognized key")', async () => {
    const dir = writeProject({
      'evals.config.mjs': `export default { outputDir: '.out', judge: { provider: 'fake', fixtures: 'fixtures.yaml' }, targets: { desk: () => 'Noted' } };\n`,
      'fixtures.yaml': '- case: booking/*\n  user: [hi]\n  goalMetWen: reference\n',
      'evals/booking.eval.yaml': 'suite: booking\ntarget: desk\ncases:\n  - id: friday\n    simulatedUser: { goal: Book., maxTurns: 2 }\n    assert: [{ type: contains, value: Noted }]\n',
    });
    const r = await runCliInProcess(['run'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(`agent-evals: ${join(dir, 'fixtures.yaml')}: 0.goalMetWen: unknown field "goalMetWen"`);
  });

  it('fixtures that are not valid stop the run before any target (exit 2), naming the file and the entry; in a dry run too', async () => {
    const dir = writeProject({
      'evals.config.mjs': `import { appendFileSync } from 'node:fs';\nexport default { outputDir: '.out', judge: { provider: 'fake', fixtures: 'fixtures.yaml' }, targets: { desk: (input) => { appendFileSync('calls.txt', input + '\\n'); return 'Noted'; } } };\n`,
      'fixtures.yaml': '- case: booking/*\n  user: [hi]\n  score: 1\n',
      'evals/booking.eval.yaml': 'suite: booking\ntarget: desk\ncases:\n  - id: friday\n    simulatedUser: { goal: Book., maxTurns: 2 }\n    assert: [{ type: contains, value: Noted }]\n',
    });
    for (const args of [['run'], ['run', '--dry-run']]) {
      const r = await runCliInProcess(args, { cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.stderr.trim()).toBe(`agent-evals: ${join(dir, 'fixtures.yaml')}: 0.score: an entry gives either "score" (a judge answer) or "user" (a scripted simulated user)`);
      expect(readCountFile(join(dir, 'calls.txt'))).toEqual([]);
    }
  });
});
