/**
 * What the final write leaves on disk: run folders under `<outputDir>/runs/` are pruned to
 * `keepRuns`, and an exit in the middle of the results write (a second Ctrl-C) removes its temp file.
 * Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(removeTempDirs);

function project(config: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'evals'));
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['evals/*.eval.yaml'], outputDir: 'out', targets: { t: async () => 'hi' }${config} };\n`);
  writeFileSync(join(dir, 'evals', 'one.eval.yaml'), 'suite: one\ntarget: t\ncases:\n  - id: hi\n    input: x\n    assert:\n      - { type: equals, value: hi }\n');
  return dir;
}

describe('run folders', () => {
  it('keeps only the last keepRuns run folders', async () => {
    const dir = project(', keepRuns: 2');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const json = join(dir, `results-${i}.json`);
      const r = await runCliInProcess(['run', '--json', json], { cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      ids.push(JSON.parse(readFileSync(json, 'utf8')).run.id);
    }
    expect(readdirSync(join(dir, 'out', 'runs')).sort()).toEqual(ids.slice(2).sort());
  }, 60_000);

  it("keepRuns: 0 keeps none, this run's folder included, once its results are written whole", async () => {
    const dir = project(', keepRuns: 0');
    const runs = join(dir, 'out', 'runs');
    mkdirSync(join(runs, '20200101-000000-old'), { recursive: true });
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8')).cases.map((c: { id: string }) => c.id)).toEqual(['hi']);
    expect(readdirSync(runs)).toEqual([]);
  });

  it('keeps 50 by default, this run among them, the oldest by run id removed', async () => {
    const dir = project('');
    const runs = join(dir, 'out', 'runs');
    // 54 older runs, made by hand with increasing times.
    const older = Array.from({ length: 54 }, (_, i) => `20200101-00${String(Math.floor(i / 60)).padStart(2, '0')}${String(i % 60).padStart(2, '0')}-old`);
    for (const id of older) mkdirSync(join(runs, id), { recursive: true });
    const r = await runCliInProcess(['run', '--json', join(dir, 'results.json')], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const left = readdirSync(runs).sort();
    const id = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).run.id;
    expect(left).toEqual([...older.slice(5), id]);
  });

  it('prunes by the start in the run id, not by modification time (a restored CI cache resets it), and leaves a folder that is no run alone', async () => {
    const dir = project(', keepRuns: 2');
    const runs = join(dir, 'out', 'runs');
    const oldest = '20200101-000000-aaaaaa';
    const older = '20200102-000000-bbbbbb';
    for (const id of [oldest, older, 'my-notes']) mkdirSync(join(runs, id), { recursive: true });
    // The oldest run's folder was touched last (copied back from a cache): still the oldest run.
    utimesSync(join(runs, older), 1_000, 1_000);
    utimesSync(join(runs, oldest), 2_000_000_000, 2_000_000_000);
    const r = await runCliInProcess(['run', '--json', join(dir, 'results.json')], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const id = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).run.id;
    expect(readdirSync(runs).sort()).toEqual([older, id, 'my-notes'].sort());
  });
});

describe('an exit during the final write', () => {
  it('removes the temp file it was writing', () => {
    const dir = tempDir();
    const target = join(dir, 'results.json');
    const atomic = pathToFileURL(join(REPO_ROOT, 'dist', 'report', 'atomic-write.js')).href;
    // Half the document is written, then the process exits as the second Ctrl-C makes it do.
    const script = `
      const { writeAtomic } = await import(${JSON.stringify(atomic)});
      void writeAtomic(${JSON.stringify(target)}, async (write) => {
        await write('{"half": ');
        setTimeout(() => process.exit(130), 50);
        await new Promise(() => {});
      });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(130);
    expect(readdirSync(dir)).toEqual([]);
  });
});
