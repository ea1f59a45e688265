/**
 * A bad target cannot take the run down: an exception or rejection a function target's own timer
 * leaves uncaught fails that target's running trial, and the other cases still pass; a trace
 * holding a circular reference or a BigInt is stored marked, not crashed on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { removeTempDirs, runCli, STACK_FRAME } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';
import { readResults, caseOf } from '../support/results-helpers.js';

afterAll(removeTempDirs);

const CONFIG = `const later = (ms) => new Promise((r) => setTimeout(r, ms));
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  // The marked circular and BigInt values are read back from the results: 'full' keeps tool data raw there.
  trace: 'full',
  concurrency: 4,
  targets: {
    // The timer throws while the call still waits: the throw belongs to this trial.
    throwsLater: async () => { setTimeout(() => { throw new Error('boom from a timer'); }, 10); await later(5000); return 'never'; },
    rejectsLater: async () => { setTimeout(() => { Promise.reject({ code: 7 }); }, 10); await later(5000); return 'never'; },
    fine: async (input) => { await later(50); return 'ok ' + input; },
    circular: async () => {
      const record = { id: 'A1', total: 12345678901234567890n };
      record.self = record;
      return { reply: 'ok', steps: [{ toolCalls: [{ name: 'lookup', args: { id: 5n }, result: record }] }] };
    },
  },
};
`;

const suite = (name: string, target: string, ids: string[]) =>
  `suite: ${name}\ntarget: ${target}\ncases:\n${ids.map((id) => `  - { id: ${id}, input: x, assert: [{ type: contains, value: ok }] }`).join('\n')}\n`;

describe('target faults', () => {
  it('a timer that throws fails its trial; the other cases pass; circular and BigInt traces are stored marked', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'evals/bad.eval.yaml': suite('bad', 'throwsLater', ['throws']),
      'evals/rej.eval.yaml': suite('rej', 'rejectsLater', ['rejects']),
      'evals/good.eval.yaml': suite('good', 'fine', ['one', 'two', 'three']),
      'evals/loop.eval.yaml': suite('loop', 'circular', ['trace']),
    });
    const json = join(dir, 'results.json');
    const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 30_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).not.toContain('internal error');
    const res = readResults(json);

    const throws = caseOf(res, 'bad/throws');
    expect(throws.verdict).toBe('failed');
    expect(throws.trials[0]!.error).toContain('uncaught exception in target "throwsLater": boom from a timer');
    const rejects = caseOf(res, 'rej/rejects');
    expect(rejects.verdict).toBe('failed');
    expect(rejects.trials[0]!.error).toContain('unhandled rejection in target "rejectsLater": {"code":7}');
    for (const id of ['one', 'two', 'three']) expect(caseOf(res, `good/${id}`).verdict).toBe('passed');

    const loop = caseOf(res, 'loop/trace');
    expect(loop.verdict).toBe('passed');
    const call = loop.trials[0]!.trace.steps![0]!.toolCalls![0]!;
    expect(call.args).toEqual({ id: '5n' });
    expect(call.result).toEqual({ id: 'A1', total: '12345678901234567890n', self: '[Circular]' });
  });

  it('a fault no call can be named for fails every running function-target trial; the run goes on', async () => {
    // The interval is made while the config loads, outside any trial: its throw carries no trial.
    const config = `const later = (ms) => new Promise((r) => setTimeout(r, ms));
let armed = 0;
const tick = setInterval(() => { if (armed >= 2) { clearInterval(tick); throw new Error('thrown by a shared timer'); } }, 5);
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 4,
  targets: {
    waits: async () => { armed += 1; await later(5000); return 'ok late'; },
    quick: async () => 'ok',
  },
};
`;
    const dir = writeProject({
      'evals.config.mjs': config,
      'evals/waits.eval.yaml': suite('waits', 'waits', ['first', 'second']),
      'evals/quick.eval.yaml': suite('quick', 'quick', ['done']),
    });
    const json = join(dir, 'results.json');
    const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 30_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    const res = readResults(json);
    for (const id of ['first', 'second']) {
      const c = caseOf(res, `waits/${id}`);
      expect(c.verdict).toBe('failed');
      expect(c.trials[0]!.error).toContain('uncaught exception in target "waits" (or another function target running at the same time): thrown by a shared timer');
    }
    // A call that was not running when the timer threw is not blamed.
    expect(caseOf(res, 'quick/done').verdict).toBe('passed');
  });
});
