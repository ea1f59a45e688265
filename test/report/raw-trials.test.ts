import { mkdtemp, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RawTrialsWriter, rawTrialsPath, readRawTrials } from '../../src/report/raw-trials.js';

describe('raw trials store', () => {
  it('reads back what was appended, by case key, skipping a torn line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-trials-'));
    const w = new RawTrialsWriter(rawTrialsPath(dir, 'run-1'));
    const trace = { steps: [{ toolCalls: [{ name: 'lookup', args: { orderId: 'A1' }, result: { ok: true } }] }] };
    await w.append({ key: 's/a', trials: [{ index: 0, trace }] });
    await appendFile(rawTrialsPath(dir, 'run-1'), '{"key": "s/torn", "tri\n');
    await w.append({ key: 's/b', trials: [{ index: 1, trace: {} }] });
    const read = await readRawTrials(dir, 'run-1');
    expect([...read!.keys()]).toEqual(['s/a', 's/b']);
    expect(read!.get('s/a')!.trials[0]!.trace.steps![0]!.toolCalls![0]!.args).toEqual({ orderId: 'A1' });
  });

  it('is undefined for a run that kept none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-trials-'));
    expect(await readRawTrials(dir, 'nope')).toBeUndefined();
  });
});
