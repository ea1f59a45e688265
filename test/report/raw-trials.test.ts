import { mkdtemp, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawTrialsReporter, RawTrialsWriter, rawTrialsPath, readRawTrials } from '../../src/report/raw-trials.js';
import { emptyUsage } from '../../src/core/usage.js';
import { caseResult } from '../support/case-result.js';

describe('raw trials store', () => {
  it('reads back what was appended, by case key, skipping a torn line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-trials-'));
    const w = new RawTrialsWriter(rawTrialsPath(dir, 'run-1'));
    const trace = { steps: [{ toolCalls: [{ name: 'lookup', args: { orderId: 'A1' }, result: { ok: true } }] }] };
    await w.append({ key: 's/a', trials: [{ index: 0, trace }] });
    await w.flush();
    await appendFile(rawTrialsPath(dir, 'run-1'), '{"key": "s/torn", "tri\n');
    await w.append({ key: 's/b', trials: [{ index: 1, trace: {} }] });
    await w.close();
    const read = await readRawTrials(dir, 'run-1');
    expect([...read!.keys()]).toEqual(['s/a', 's/b']);
    expect(read!.get('s/a')!.trials[0]!.trace.steps![0]!.toolCalls![0]!.args).toEqual({ orderId: 'A1' });
  });

  it('is undefined for a run that kept none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-trials-'));
    expect(await readRawTrials(dir, 'nope')).toBeUndefined();
  });

  it('the reporter keeps each case that ran, by its matrix-aware key, with its raw trace and turns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-trials-'));
    const reporter = rawTrialsReporter({ outputDir: dir });
    const trace = { steps: [{ toolCalls: [{ name: 'lookup', args: { orderId: 'ORD-7' }, result: 'ok' }] }] };
    const turns = [{ input: 'hi', reply: 'yo', toolCalls: [{ name: 'lookup', args: { orderId: 'ORD-7' } }], usage: emptyUsage(), durationMs: 1 }];
    const usage = { target: emptyUsage(), judge: emptyUsage() };
    const ran = caseResult({ matrix: { target: 'a' }, trials: [{ index: 2, verdict: 'passed', score: 1, durationMs: 1, reply: 'yo', usage, assertions: [], trace, turns }] });
    const view = { index: 0, key: 's/c', suite: 's', id: 'c', file: 'e.yaml', line: 1, tags: [], targetName: 't', repeat: 1 };
    await reporter.onBegin!({ runId: 'run-2', startedAt: '', config: null, cases: 2, trials: 2, concurrency: 1, strict: false });
    await reporter.onCaseEnd!(ran, view);
    await reporter.onCaseEnd!(caseResult({ id: 'skipped', verdict: 'skipped', trials: [] }), view);
    await reporter.onEnd!({ run: { id: 'run-2', startedAt: '', durationMs: 0, gitSha: null, argv: [], config: null, interrupted: false }, summary: {} as never, exitCode: 0 });
    const read = await readRawTrials(dir, 'run-2');
    expect([...read!.keys()]).toEqual(['s/c [target=a]']);
    expect(read!.get('s/c [target=a]')!.trials).toEqual([{ index: 2, trace, turns }]);
  });
});
