/** `--watch` re-plans after a save: a config or *.eval.ts loaded again must be the saved text, not the cached module. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetLoadedModules, importUserModule } from '../../src/suite/import-module.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

describe('forgetLoadedModules', () => {
  it.each(['mod.mjs', 'mod.ts'])('a %s saved again loads its new exports after forgetLoadedModules', async (name) => {
    const file = join(tempDir(), name);
    writeFileSync(file, 'export default { v: 1 };\n');
    expect(await importUserModule(file)).toEqual({ v: 1 });
    writeFileSync(file, 'export default { v: 2 };\n');
    forgetLoadedModules();
    expect(await importUserModule(file)).toEqual({ v: 2 });
  });
});
