/**
 * A load in this very process, as a library use (`evaluate()`) makes it: a module that only awaits
 * is ended by the load timer, with the message naming the limit. The watchdog that kills the process
 * for a module blocking the thread is armed by the CLI only, and tested in child processes
 * (test/e2e/cli-load-loop.test.ts).
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
  it('a module that awaits forever is ended by the load timer', async () => {
    const pending = module('pending.mjs', 'await new Promise(() => {});\n');
    await expect(importUserModule(pending, 'pending.mjs', 300)).rejects.toThrow('within 300 ms (a top-level await that never settles?)');
  });
});
