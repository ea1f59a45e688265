import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newestResults, resultsOnDisk } from '../../src/cli/newest-results.js';

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'ae-newest-'));
  const out = join(dir, '.agent-evals');
  mkdirSync(join(out, 'baselines'), { recursive: true });
  return { dir, out };
}

describe('newest results under outputDir', () => {
  it('lists results.json and saved baselines newest first', async () => {
    const { out } = project();
    writeFileSync(join(out, 'results.json'), '{}');
    writeFileSync(join(out, 'baselines', 'main.json'), '{}');
    writeFileSync(join(out, 'baselines', 'notes.txt'), 'not a baseline');
    utimesSync(join(out, 'results.json'), 1_000, 1_000);
    utimesSync(join(out, 'baselines', 'main.json'), 2_000, 2_000);
    expect((await resultsOnDisk(out)).map((f) => f.path)).toEqual([join(out, 'baselines', 'main.json'), join(out, 'results.json')]);
  });

  it('names the flag and the folder when there is nothing to read', async () => {
    const { dir, out } = project();
    await expect(newestResults(out, dir, '--last-failed')).rejects.toMatchObject({ message: expect.stringContaining('.agent-evals holds no results.json'), field: '--last-failed' });
  });
});
