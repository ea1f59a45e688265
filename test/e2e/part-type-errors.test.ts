/**
 * A content part with an unknown `type` (in `input`, a turn's `input` or a message's `content`) is a
 * load error that names the part's field and the part types, in YAML and TS eval files alike: exit 2
 * before the target runs. The message and the exit code are the subject, not the process: the built
 * CLI's `main` runs in the test worker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCountFile, removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(() => removeTempDirs());

/** A command agent that records each call: no line in COUNT_FILE means it never ran. */
const AGENT = `import { appendFileSync } from 'node:fs';
process.stdin.resume().on('end', () => { appendFileSync(process.env.COUNT_FILE, 'called\\n'); process.stdout.write(JSON.stringify({ reply: 'ok' })); });
`;

async function run(file: string, text: string): Promise<{ code: number | null; stderr: string; calls: string[] }> {
  const dir = tempDir();
  const countFile = join(dir, 'calls.txt');
  writeFileSync(join(dir, 'agent.mjs'), AGENT);
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['*.eval.{yaml,ts}'], outputDir: '.out', targets: { cli: { command: ['node', 'agent.mjs'] }, fn: (input) => 'ok' } };\n`);
  writeFileSync(join(dir, file), text);
  const r = await runCliInProcess(['run'], { cwd: dir, env: { COUNT_FILE: countFile } });
  return { code: r.code, stderr: r.stderr.trim(), calls: readCountFile(countFile) };
}

describe.concurrent('an unknown content-part type', () => {
  it('in a YAML file: input, turn and message each name the part field', async () => {
    const yaml = [
      'suite: parts',
      'target: fn',
      'cases:',
      '  - id: input',
      '    input:',
      '      - { type: text, text: hi }',
      '      - { type: imag, path: a.png }',
      '    assert: [{ type: contains, value: ok }]',
      '  - id: turn',
      '    turns:',
      '      - input: [{ type: imag, path: a.png }]',
      '        assert: [{ type: contains, value: ok }]',
      '  - id: message',
      '    messages:',
      '      - role: user',
      '        content: [{ type: imag, path: a.png }]',
      '    assert: [{ type: contains, value: ok }]',
      '',
    ].join('\n');
    const r = await run('parts.eval.yaml', yaml);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        'agent-evals: parts.eval.yaml:7: cases[0].input[1].type: unknown part type "imag": did you mean "image"? (known: text, image, file)',
        'parts.eval.yaml:11: cases[1].turns[0].input[0].type: unknown part type "imag": did you mean "image"? (known: text, image, file)',
        'parts.eval.yaml:16: cases[2].messages[0].content[0].type: unknown part type "imag": did you mean "image"? (known: text, image, file)',
      ].join('\n'),
    );
    expect(r.calls).toEqual([]);
  });

  it('in a TS file', async () => {
    const ts = `export default {\n  suite: 'parts',\n  target: 'cli',\n  cases: [\n    { id: 'fine', input: 'x', assert: [{ type: 'contains', value: 'ok' }] },\n    { id: 'bad', input: [{ type: 'imag', path: 'a.png' }], assert: [{ type: 'contains', value: 'ok' }] },\n  ],\n};\n`;
    const r = await run('parts.eval.ts', ts);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('agent-evals: parts.eval.ts:6: cases[1].input[0].type: unknown part type "imag": did you mean "image"? (known: text, image, file)');
    expect(r.calls).toEqual([]);
  });
});
