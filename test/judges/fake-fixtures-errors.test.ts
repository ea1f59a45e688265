/** A fake judge's fixtures file that cannot be read or has a bad entry: blamed on that file, not on an eval file. */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterEach(() => removeTempDirs());

function project(fixtures: string | undefined): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default {\n  evals: ['*.eval.yaml'],\n  outputDir: '.out',\n  judge: { provider: 'fake', fixtures: 'fx.yaml' },\n  targets: { agent: () => 'It shipped.' },\n};\n`,
  );
  writeFileSync(join(dir, 'a.eval.yaml'), 'suite: a\ntarget: agent\ncases:\n  - id: c\n    input: where?\n    assert:\n      - { type: judge, criteria: gives a date }\n');
  if (fixtures !== undefined) writeFileSync(join(dir, 'fx.yaml'), fixtures);
  return dir;
}

describe("the config's fake judge and its fixtures file", () => {
  it('a bad entry is blamed on the fixtures file, not on the eval file whose case uses the judge', async () => {
    const res = await runCliInProcess(['run'], { cwd: project("- case: 'a/*'\n  scor: 0.3\n") });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^agent-evals: \S*fx\.yaml: 0\.scor: unknown field "scor"$/m);
    expect(res.stderr).not.toContain('a.eval.yaml');
  });

  it('a missing file is blamed on the fixtures file', async () => {
    const res = await runCliInProcess(['run'], { cwd: project(undefined) });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^agent-evals: \S*fx\.yaml: cannot read fake fixtures: ENOENT/m);
    expect(res.stderr).not.toContain('a.eval.yaml');
  });
});
