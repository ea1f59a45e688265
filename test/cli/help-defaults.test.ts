/**
 * Help texts that name a default take it from the constant the code uses, not a copy: each constant
 * is given another value here, and the help must show that value.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

vi.mock('../../src/report/registry.js', async (original) => ({ ...(await original<object>()), RESULTS_FILE: 'other-results.json' }));
vi.mock('../../src/suite/import-module.js', async (original) => ({ ...(await original<object>()), DEFAULT_LOAD_TIMEOUT_MS: 12_345 }));
vi.mock('../../src/judges/batch-collect.js', async (original) => ({ ...(await original<object>()), DEFAULT_COLLECT_WAIT_MS: 67_890 }));
vi.mock('../../src/config/defaults.js', async (original) => ({ ...(await original<object>()), CONFIG_FILES_HELP: 'my.config.{x,y}' }));

const squash = (text: string) => text.replace(/\s+/g, ' ');

async function help(name: string): Promise<string> {
  const program = await buildProgram([name, '--help']);
  return squash(program.commands.find((c: Command) => c.name() === name)!.helpInformation());
}

describe('help texts show the defaults their constants hold', () => {
  it('run --json names the results file name', async () => {
    expect(await help('run')).toContain('--json [path] write the results document (default <outputDir>/other-results.json)');
  });

  it('--load-timeout and --config, in every command that has them', async () => {
    for (const name of ['run', 'list', 'calibrate', 'doctor', 'rejudge']) {
      const text = await help(name);
      expect(text, name).toContain('in ms (default 12345)');
      expect(text, name).toContain('config file (default: my.config.{x,y})');
    }
    expect(await help('compare')).toContain('re-judge the baseline (default: my.config.{x,y})');
  });

  it('rejudge --batch-wait', async () => {
    expect(await help('rejudge')).toContain('0 to not wait (default 67890)');
  });
});
