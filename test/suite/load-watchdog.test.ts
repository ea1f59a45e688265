/**
 * The load watchdog in this very process (a vitest fork, as a user's own test process would be):
 * a module that blocks the thread is stopped and the process goes on; a module that only awaits
 * is left to the load timer. The stuck module gives up after 20 s, so a watchdog that never acts
 * fails the test instead of hanging it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { importUserModule } from '../../src/suite/import-module.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

function module(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe('load watchdog', () => {
  it.each(['stuck.mjs', 'stuck.ts'])(
    'a %s stuck in a loop is stopped at the limit, and the next module loads',
    async (name) => {
      const stuck = module(name, 'const end = Date.now() + 20_000;\nwhile (Date.now() < end) {}\nexport default "finished";\n');
      const err = await importUserModule(stuck, name, 300).then(
        (value) => value,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toBe(
        `${name}: cannot load: the module did not finish loading within 300 ms (its code was still running: a loop that never ends?); raise the limit with --load-timeout or \`loadTimeoutMs\``,
      );
      expect(await importUserModule(module(`next-${name}`, 'export default { v: 1 };\n'))).toEqual({ v: 1 });
    },
    30_000,
  );

  it('a module that awaits forever is left to the load timer: nothing is stopped', async () => {
    const pending = module('pending.mjs', 'await new Promise(() => {});\n');
    await expect(importUserModule(pending, 'pending.mjs', 300)).rejects.toThrow('within 300 ms (a top-level await that never settles?)');
  });
});
