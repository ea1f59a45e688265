/**
 * A bad target cannot take the run down: an exception or rejection a function target's own timer
 * leaves uncaught fails that target's running trial, and the other cases still pass; a trace
 * holding a circular reference or a BigInt is stored marked, not crashed on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
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
    const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
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
    const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
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

  describe('process.exit from an in-process target', () => {
    const config = (targets: string) => `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 2,
  targets: {
${targets}
  },
};
`;
    // Code after the exit must not run: a real exit would never reach it.
    const EXITS = `    exits: async () => { await new Promise((r) => setTimeout(r, 20)); process.exit(0); return 'ok after exit'; },`;

    it('process.exit(0) in one case while another fails: exit 1, both cases in the results, the exiting trial failed naming the call', async () => {
      const dir = writeProject({
        'evals.config.mjs': config(`${EXITS}
    wrong: async () => 'nope',`),
        'evals/exits.eval.yaml': suite('exits', 'exits', ['quits']),
        'evals/wrong.eval.yaml': suite('wrong', 'wrong', ['fails']),
      });
      const json = join(dir, 'results.json');
      const junit = join(dir, 'junit.xml');
      const r = await runCli(['run', '--json', json, '--reporter', 'terminal', '--reporter', `junit=${junit}`], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      const res = readResults(json);
      expect(res.cases.map((c) => c.id).sort()).toEqual(['fails', 'quits']);
      const quits = caseOf(res, 'exits/quits');
      expect(quits.verdict).toBe('failed');
      expect(quits.trials[0]!.error).toContain('target "exits" called process.exit(0) during its trial (trapped');
      expect(caseOf(res, 'wrong/fails').verdict).toBe('failed');
      expect(existsSync(junit)).toBe(true);
    });

    it('process.exit(0) in the only case: still exit 1, not green', async () => {
      const dir = writeProject({
        'evals.config.mjs': config(EXITS),
        'evals/exits.eval.yaml': suite('exits', 'exits', ['quits']),
      });
      const json = join(dir, 'results.json');
      const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const quits = caseOf(readResults(json), 'exits/quits');
      expect(quits.verdict).toBe('failed');
      expect(quits.trials[0]!.error).toContain('process.exit(0)');
    });

    it('process.abort() and process.kill(process.pid) are trapped the same way; the other case passes', async () => {
      const dir = writeProject({
        'evals.config.mjs': config(`    aborts: async () => { process.abort(); return 'ok'; },
    kills: async () => { process.kill(process.pid, 'SIGTERM'); return 'ok'; },
    fine: async () => 'ok',`),
        'evals/aborts.eval.yaml': suite('aborts', 'aborts', ['a']),
        'evals/kills.eval.yaml': suite('kills', 'kills', ['k']),
        'evals/fine.eval.yaml': suite('fine', 'fine', ['f']),
      });
      const json = join(dir, 'results.json');
      const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const res = readResults(json);
      expect(caseOf(res, 'aborts/a').trials[0]!.error).toContain('called process.abort()');
      expect(caseOf(res, 'kills/k').trials[0]!.error).toContain('called process.kill(');
      expect(caseOf(res, 'fine/f').verdict).toBe('passed');
    });

    it('a process.exit no trial can take (a timer left by a finished call) fails the run, which still writes its results', async () => {
      // setImmediate fires after the call has returned, before the run ends: no running trial is the target's.
      const dir = writeProject({
        'evals.config.mjs': config(`    leaky: async () => { setImmediate(() => process.exit(0)); return 'ok'; },
    fine: async () => 'ok',`),
        'evals/leaky.eval.yaml': suite('leaky', 'leaky', ['leaves']),
        'evals/fine.eval.yaml': suite('fine', 'fine', ['one', 'two']),
      });
      const json = join(dir, 'results.json');
      const r = await runCli(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const res = readResults(json);
      expect(res.cases.map((c) => c.id).sort()).toEqual(['leaves', 'one', 'two']);
      expect(res.summary.failures.join('\n')).toContain('process.exit(0) called during the run outside any function-target trial');
    });

    it('a process.exit trapped after the verdict was made (while the reporters write) still ends the run non-zero', async () => {
      // A user reporter's onEnd lets an immediate call process.exit(0): the summary exists, the run has not ended.
      const dir = writeProject({
        'evals.config.mjs': config(`    fine: async () => 'ok',`),
        'late-exit.mjs': `export default { apiVersion: 1, create: () => ({ onEnd: () => new Promise((done) => setImmediate(() => { done(); process.exit(0); })) }) };\n`,
        'evals/fine.eval.yaml': suite('fine', 'fine', ['one']),
      });
      const r = await runCli(['run', '--reporter', './late-exit.mjs', '--reporter', 'terminal'], { cwd: dir, timeoutMs: 60_000 });
      expect(r.stderr + r.stdout).toContain('process.exit(0) called during the run outside any function-target trial');
      expect(r.code, r.stdout + r.stderr).toBe(1);
    });

    it('an exit the trap cannot see (process.exit saved before the run) still ends the run non-zero', async () => {
      const dir = writeProject({
        'evals.config.mjs': `const realExit = process.exit.bind(process);
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: { exits: async () => { realExit(0); return 'ok'; } },
};
`,
        'evals/exits.eval.yaml': suite('exits', 'exits', ['quits']),
      });
      const r = await runCli(['run'], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('while the run is in progress: its results are not written; the run fails');
    });

    it('a heap exhaustion in a function target cannot be trapped, but the run is never green', async () => {
      // A small heap so the target reaches the limit at once; what V8 does then is its fatal error.
      const dir = writeProject({
        'evals.config.mjs': config(`    hog: async () => { const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length)); },`),
        'evals/hog.eval.yaml': suite('hog', 'hog', ['grows']),
      });
      const r = await runCli(['run'], { cwd: dir, env: { NODE_OPTIONS: '--max-old-space-size=48' }, timeoutMs: 60_000 });
      // V8's fatal error aborts: the process dies of SIGABRT (a shell sees 134), never exit 0.
      expect(r.code, r.stdout + r.stderr).not.toBe(0);
      expect(r.code ?? r.signal).toBe('SIGABRT');
    });
  });
});
