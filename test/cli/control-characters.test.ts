/**
 * A file that starts with terminal escapes (clear the screen, set the window title) given to each
 * command that reads results or traces: the error quotes the file (a JSON parser's excerpt), and the
 * quote reaches stderr with its control characters shown escaped (`\x1b`), never sent to the terminal.
 * Through the built CLI's `main` in-process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(removeTempDirs);

it('report, rejudge, review, import, merge and compare show a file’s control characters escaped in their errors', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'r.json'), '\x1b[2J\x1b]0;pwned\x07{"run": 1}');
  writeFileSync(join(dir, 't.json'), '\x1b[31m{"resourceSpans": 1}');
  const commands = [
    ['report', 'r.json'],
    ['rejudge', 'r.json'],
    ['review', 'r.json'],
    ['import', 't.json'],
    ['merge', 'r.json', 'r.json', '-o', 'm.json'],
    ['compare', 'r.json', 'r.json'],
  ];
  for (const args of commands) {
    const res = await runCliInProcess(args, { cwd: dir, timeoutMs: 60_000 });
    expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(2);
    // Nothing below 0x20 but the newline, no DEL or C1 control.
    expect(res.stderr, args.join(' ')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(res.stderr, args.join(' ')).toMatch(/^agent-evals: [rt]\.json/);
    if (args[0] !== 'import') expect(res.stderr, args.join(' ')).toContain('"\\x1b[2J\\x1b]0;pw"');
  }
});
