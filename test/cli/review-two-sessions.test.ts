/**
 * Two `agent-evals review` processes on one labels file (the built CLI, spawned twice): each label
 * either posts over real HTTP is kept, whichever order or overlap the posts come in, because each
 * write reads the file again under its lock file and sets its one label on what it holds.
 * Needs dist/ (`npm run build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { removeTempDirs, spawnCli, type SpawnedCli } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

const sessions: SpawnedCli[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)$/m;

async function open(dir: string): Promise<{ cli: SpawnedCli; url: string }> {
  const cli = spawnCli(['review', 'results.json'], { cwd: dir, timeoutMs: 120_000 });
  sessions.push(cli);
  await cli.waitForStdout(URL_LINE, 60_000);
  return { cli, url: URL_LINE.exec(cli.stdout())![1]! };
}

async function label(url: string, id: string, humanVerdict: 'pass' | 'fail' | null, humanScore: number | null): Promise<void> {
  const res = await fetch(`${url}label`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, humanVerdict, humanScore }) });
  expect(res.status, await res.clone().text()).toBe(200);
  await res.body?.cancel();
}

function stored(dir: string): Record<string, unknown> {
  const rows = readFileSync(join(dir, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; humanVerdict?: string; humanScore?: number });
  return Object.fromEntries(rows.map((r) => [r.id, [r.humanVerdict ?? null, r.humanScore ?? null]]));
}

it('two review sessions on one labels file keep each other’s labels, in turn and at once', async () => {
  const run = await runInProcess({
    files: {
      'r.eval.yaml': `suite: r\ntarget: agent\ncases:\n${[1, 2, 3, 4, 5, 6].map((n) => `  - { id: c${n}, input: q${n}, assert: [{ type: contains, value: q }] }`).join('\n')}\n`,
    },
    config: { targets: { agent: (i: string) => i } },
  });
  const dir = run.dir;
  // Both start on a file with no labels: each one's memory of it is empty.
  const a = await open(dir);
  const b = await open(dir);

  // In turn: b's first write used to replace the file with b's labels alone.
  await label(a.url, 'r/c1#1', 'pass', 9);
  await label(b.url, 'r/c2#1', 'fail', 2);
  await label(a.url, 'r/c3#1', 'pass', null);
  // b clears a's label of c1: a clear is a change too, and a's next write must not bring it back.
  await label(b.url, 'r/c1#1', null, null);
  await label(a.url, 'r/c4#1', null, 7);
  expect(stored(dir)).toEqual({ 'r/c2#1': ['fail', 2], 'r/c3#1': ['pass', null], 'r/c4#1': [null, 7] });

  // At once: whatever the interleaving, the lock makes each write see the other's.
  await Promise.all([label(a.url, 'r/c5#1', 'fail', 1), label(b.url, 'r/c6#1', 'pass', 10), label(a.url, 'r/c2#1', 'pass', 8)]);
  expect(stored(dir)).toEqual({ 'r/c2#1': ['pass', 8], 'r/c3#1': ['pass', null], 'r/c4#1': [null, 7], 'r/c5#1': ['fail', 1], 'r/c6#1': ['pass', 10] });
  expect(existsSync(join(dir, 'labels.jsonl.lock'))).toBe(false);

  for (const s of [a, b]) {
    s.cli.child.kill('SIGINT');
    const done = await s.cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('Review stopped:');
  }
  expect(Object.keys(stored(dir))).toHaveLength(5);
}, 180_000);
