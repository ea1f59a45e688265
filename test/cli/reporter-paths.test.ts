/**
 * Two reporters of different kinds given one file would leave only the later report: that is exit 2
 * naming the path, before any target runs. The same report asked twice (config `json` and `--json`)
 * still writes one file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reporterOutputs } from '../../src/cli/reporters.js';
import { UserError } from '../../src/core/errors.js';
import { readCountFile, removeTempDirs, STACK_FRAME, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(() => removeTempDirs());

const ctx = { cwd: '/work/p', outputDir: '/work/p/.out', version: '0', verbose: false };

describe('reporters that would write one file', () => {
  it('junit=out.xml and html=out.xml are refused naming the path', () => {
    expect(() => reporterOutputs(['terminal', 'junit=out.xml', 'html=out.xml'], ctx)).toThrow(
      new UserError('the junit and html reporters would both write out.xml, and one report would be lost: give each its own path', { field: '--reporter' }),
    );
  });

  it('--json x next to a reporter writing x is refused (--json is the json reporter)', () => {
    expect(() => reporterOutputs(['html=x', 'json=x'], ctx)).toThrow('the html and json reporters would both write x');
  });

  it('a default path counts too: html=.out/results.json collides with the json reporter', () => {
    expect(() => reporterOutputs(['json', 'html=.out/results.json'], ctx)).toThrow('the json and html reporters would both write .out/results.json');
  });

  it('the same report asked twice, or different paths, are accepted', () => {
    expect(reporterOutputs(['json', 'json'], ctx).filter((o) => o.kind === 'file')).toHaveLength(2);
    expect(reporterOutputs(['junit=a.xml', 'html=a.html', 'json=a.json'], ctx).filter((o) => o.kind === 'file')).toHaveLength(3);
  });

  it('from the command line: exit 2 naming the path, no target called (needs dist/)', async () => {
    const dir = tempDir();
    const countFile = join(dir, 'calls.txt');
    writeFileSync(join(dir, 'agent.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.COUNT_FILE, 'call\\n');\nprocess.stdout.write(JSON.stringify({ reply: 'ok' }));\n`);
    writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['*.eval.yaml'], targets: { cli: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH', 'COUNT_FILE'] } } };\n`);
    writeFileSync(join(dir, 'a.eval.yaml'), `suite: s\ntarget: cli\ncases:\n  - { id: a, input: x, assert: [{ type: contains, value: ok }] }\n`);
    const r = await runCliInProcess(['run', '--reporter', 'junit=out.xml', '--json', 'out.xml'], { cwd: dir, env: { COUNT_FILE: countFile } });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('the junit and json reporters would both write out.xml');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(readCountFile(countFile)).toEqual([]);
  });
});
