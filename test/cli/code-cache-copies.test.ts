/**
 * Each copy of src/cli/code-cache.ts runs the start chunk for itself, with its own loader's import():
 * a copy made by another loader (jiti compiling the public entry, or this test runner's transform)
 * must not hand its import() to the copy Node loads. Shared, an isolated target's worker (Node's
 * import) found other function text than the CLI had (cli-isolate failed so, depending on which
 * test file loaded the chunk first). Needs dist/.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script, constants } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { loadCachedScript as transformedCopy } from '../../src/cli/code-cache.js';

const nativeImport = new Script('(url) => import(url)', { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext() as (url: string) => Promise<unknown>;

describe('the start chunk run per copy of the code cache module', () => {
  it("a copy from another loader gets its own run, and Node's copy keeps one instance", async () => {
    const chunks = join(REPO_ROOT, 'dist', 'chunks');
    const chunk = pathToFileURL(
      join(
        chunks,
        readdirSync(chunks).find((f) => /^start-[\w-]+\.cjs$/.test(f))!,
      ),
    );
    const other = transformedCopy(chunk, () => Promise.reject(new Error('the other loader')));
    const { loadCachedScript } = (await nativeImport(pathToFileURL(join(REPO_ROOT, 'dist', 'cli', 'code-cache.js')).href)) as { loadCachedScript: typeof transformedCopy };
    const native = loadCachedScript(chunk, (s) => nativeImport(s));
    expect(native).not.toBe(other);
    expect(loadCachedScript(chunk, () => Promise.reject(new Error('a later load')))).toBe(native);
    expect(transformedCopy(chunk, () => Promise.reject(new Error('a later load')))).toBe(other);
  });
});
