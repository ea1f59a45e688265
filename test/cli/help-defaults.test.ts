/**
 * Help texts that name a default take it from the constant the code uses, not a copy: the help shows
 * each constant's value, and no help line of src/cli/ writes such a value out by hand.
 *
 * No module mocks: test files share a worker's modules (vitest.config.ts, `isolate: false`), so a mocked
 * constant here would reach every later file in the worker (the reference-docs test read the mocked
 * config file names once).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { CONFIG_FILES_HELP } from '../../src/config/defaults.js';
import { DEFAULT_COLLECT_WAIT_MS } from '../../src/judges/batch-collect.js';
import { RESULTS_FILE } from '../../src/report/registry.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../../src/suite/import-module.js';
import { REPO_ROOT } from '../support/cli.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');

async function help(name: string): Promise<string> {
  const program = await buildProgram([name, '--help']);
  return squash(program.commands.find((c: Command) => c.name() === name)!.helpInformation());
}

/** Every `.option(` / `.argument(` call's text in src/cli/, with its file. */
function helpLines(): { file: string; line: string }[] {
  const dir = join(REPO_ROOT, 'src', 'cli');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => /\.(option|requiredOption|argument)\(/.test(line))
        .map((line) => ({ file, line })),
    );
}

describe('help texts show the defaults their constants hold', () => {
  it('run --json names the results file name', async () => {
    expect(await help('run')).toContain(`--json [path] write the results document (default <outputDir>/${RESULTS_FILE})`);
  });

  it('--load-timeout and --config, in every command that has them', async () => {
    for (const name of ['run', 'list', 'calibrate', 'doctor', 'rejudge']) {
      const text = await help(name);
      expect(text, name).toContain(`in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`);
      expect(text, name).toContain(`config file (default: ${CONFIG_FILES_HELP})`);
    }
    expect(await help('compare')).toContain(`re-judge the baseline (default: ${CONFIG_FILES_HELP})`);
  });

  it('rejudge --batch-wait', async () => {
    expect(await help('rejudge')).toContain(`0 to not wait (default ${DEFAULT_COLLECT_WAIT_MS})`);
  });

  it('no help line writes one of these defaults out by hand', () => {
    const copies = helpLines().filter(
      ({ line }) =>
        /\(default[: ]/.test(line) &&
        [String(DEFAULT_LOAD_TIMEOUT_MS), String(DEFAULT_COLLECT_WAIT_MS), `<outputDir>/${RESULTS_FILE}`, CONFIG_FILES_HELP, 'evals.config.{'].some((v) => line.includes(v)),
    );
    expect(copies).toEqual([]);
  });
});
