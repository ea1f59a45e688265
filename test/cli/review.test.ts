/**
 * `agent-evals review`'s bad input, through the built CLI's `main` in-process: each is exit 2 with a
 * message naming the file or flag, before anything is served (nothing on stdout: no address printed).
 * The served page itself is tested in Chromium (test/report/review-browser.test.ts).
 */
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

async function project(): Promise<string> {
  const run = await runInProcess({
    files: { 'r.eval.yaml': 'suite: r\ntarget: agent\ncases:\n  - { id: a, input: q, assert: [{ type: contains, value: q }] }\n' },
    config: { targets: { agent: (i: string) => i } },
  });
  return run.dir;
}

describe('agent-evals review: bad input is exit 2 before anything is served', () => {
  it('a labels path that is not .jsonl, a missing results file, an invalid labels file, a port in use', async () => {
    const dir = await project();
    writeFileSync(join(dir, 'bad.jsonl'), JSON.stringify({ id: 'r/a#1', output: 'q', humanVerdict: 'pass', mood: 'ok' }) + '\n');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const cases: [string[], string][] = [
        [['review', 'results.json', '--labels', 'labels.csv'], 'agent-evals: labels.csv: --labels: the labels file is JSONL: give a path ending in .jsonl'],
        [['review', 'nope.json'], 'nope.json: <results>: no such results file'],
        [['review', 'results.json', '--labels', 'bad.jsonl'], 'bad.jsonl:1: mood: unknown field'],
        [['review', 'results.json', '--port', String(port)], `--port: cannot listen on 127.0.0.1:${port}: the port is in use`],
        [['review', 'results.json', '--port', '70000'], "option '--port <n>' argument '70000' is invalid"],
      ];
      for (const [args, message] of cases) {
        const res = await runCliInProcess(args, { cwd: dir, timeoutMs: 60_000 });
        expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(2);
        expect(res.stderr).toContain(message);
        expect(res.stdout).toBe('');
      }
    } finally {
      busy.close();
    }
  }, 120_000);
});
