/**
 * The load watchdog in this very process: a module that only awaits is left to the load timer (the
 * main thread answers the watchdog's ping, so nothing is stopped). A module that blocks the thread is
 * stopped in child processes only (test/e2e/cli-load-loop.test.ts): the stop ends V8's execution, and
 * Node was seen to abort on a native assertion later in a long-lived vitest fork that had been
 * stopped this way, so a shared test worker is no place for it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importUserModule } from '../../src/suite/import-module.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

function module(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe('load watchdog', () => {
  it('a module that awaits forever is left to the load timer: nothing is stopped', async () => {
    const pending = module('pending.mjs', 'await new Promise(() => {});\n');
    await expect(importUserModule(pending, 'pending.mjs', 300)).rejects.toThrow('within 300 ms (a top-level await that never settles?)');
  });
});
