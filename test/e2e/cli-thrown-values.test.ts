/**
 * A thrown value that is not an Error (`throw { code: 42 }`) is shown by its content, not as
 * `[object Object]`: from a function target, and from a custom assertion's predicate. The CLI's
 * `main` runs in-process (needs dist/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { caseOf, readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

const EVAL = `export default {
  suite: 'thrown',
  target: async () => { throw { code: 42, reason: 'quota' }; },
  cases: [{ id: 'target', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }],
};
`;

const CUSTOM = `export default {
  suite: 'custom',
  target: async () => 'ok',
  cases: [{ id: 'predicate', input: 'x', assert: [{ type: 'custom', name: 'quota', fn: () => { throw { code: 7 }; } }] }],
};
`;

describe('a thrown non-Error keeps its content', () => {
  it('from a function target and from a custom predicate: the trial errors show the thrown object', async () => {
    const dir = writeProject({ 'evals.config.mjs': `export default { evals: ['*.eval.ts'], outputDir: '.out', reporters: [] };\n`, 'target.eval.ts': EVAL, 'custom.eval.ts': CUSTOM });
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);
    const target = caseOf(res, 'thrown/target').trials[0]!;
    expect(target.error).toContain('{"code":42,"reason":"quota"}');
    expect(target.error).not.toContain('[object Object]');
    const custom = caseOf(res, 'custom/predicate').trials[0]!;
    const messages = JSON.stringify(custom.assertions);
    expect(messages).toContain('{\\"code\\":7}');
    expect(messages).not.toContain('[object Object]');
  });
});
