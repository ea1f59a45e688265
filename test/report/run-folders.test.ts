import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFoldersWithResults } from '../../src/report/run-folders.js';

const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-evals-run-folders-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('runFoldersWithResults', () => {
  it('lists the run folders holding a results document, oldest run id first, with absolute paths', async () => {
    const out = dir();
    const folder = (id: string, files: string[]) => {
      mkdirSync(join(out, 'runs', id), { recursive: true });
      for (const f of files) writeFileSync(join(out, 'runs', id, f), '{}');
    };
    // Made newest first, so the order below comes from the ids, not from creation.
    folder('20261203-101500-cccccc', ['cases.jsonl', 'plan.json', 'results.json']);
    folder('20261203-101500-aaaaaa', ['results.json']);
    folder('20261202-235959-ffffff', ['results.json']);
    // A run still going (or killed): no results document yet.
    folder('20261203-120000-dddddd', ['cases.jsonl', 'plan.json']);
    // A stray file under runs/ is no run.
    writeFileSync(join(out, 'runs', 'notes.txt'), 'x');
    // A folder whose results.json is a folder is no results document.
    mkdirSync(join(out, 'runs', '20261203-130000-eeeeee', 'results.json'), { recursive: true });

    const found = await runFoldersWithResults(out);
    expect(found.map((f) => f.id)).toEqual(['20261202-235959-ffffff', '20261203-101500-aaaaaa', '20261203-101500-cccccc']);
    expect(found[0]).toEqual({
      id: '20261202-235959-ffffff',
      dir: join(out, 'runs', '20261202-235959-ffffff'),
      results: join(out, 'runs', '20261202-235959-ffffff', 'results.json'),
    });
  });

  it('finds none when the output folder has no runs/ folder or does not exist', async () => {
    const out = dir();
    expect(await runFoldersWithResults(out)).toEqual([]);
    expect(await runFoldersWithResults(join(out, 'missing'))).toEqual([]);
  });
});
