/** `{ function, otel }` in evals.config: validated with the config, each problem named with file and field. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

async function load(target: string) {
  const dir = tempDir('agent-evals-fn-target-');
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { targets: { agent: ${target} } };`);
  return loadConfig({ cwd: dir, configPath: 'evals.config.mjs' });
}

const shape = 'evals.config.mjs: targets.agent: expected { function: (input, ctx) => reply, otel?: boolean, isolate?: boolean, maxHeapMb?: number } (a function target with options)';

describe('a function target with options', () => {
  it('accepts { function, otel: true }', async () => {
    const config = await load(`{ function: async () => 'hi', otel: true }`);
    expect(config.targets['agent']).toMatchObject({ otel: true });
  });

  it.each([
    [`{ function: async () => 'hi', otel: 'yes' }`, 'otel: expected boolean, received string'],
    [`{ function: './agent.mjs', otel: true }`, 'function: expected the target function (a function)'],
    [`{ function: async () => 'hi', otle: true }`, 'unknown field "otle"'],
  ])('refuses %s', async (target, problem) => {
    await expect(load(target)).rejects.toThrow(`${shape}: ${problem}`);
  });
});
