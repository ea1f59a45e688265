/**
 * `--dry-run` answers with placeholder replies and the fake judge: no record of the agent. Saved as a
 * baseline it would be what real runs are held to, and compared with one it read "2 unchanged", exit 0,
 * whatever the agent now does. Both are bad input, before any target runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';

afterAll(() => removeTempDirs());

const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  targets: {
    agent(input) {
      writeFileSync(process.env.MARKER, 'called');
      return process.env.BROKEN ? 'I do not know.' : 'Your order A1 has shipped.';
    },
  },
  judge: 'fake',
};
`;
const EVAL = `suite: support
target: agent
cases:
  - id: order-status
    input: Where is my order A1?
    assert: [{ type: contains, value: shipped }]
`;

describe('--dry-run with a baseline', () => {
  it('--dry-run --save-baseline and --dry-run --baseline are exit 2 naming --dry-run, no target called, no baseline written', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
    const saved = expectStoppedBeforeTargets(await runMarked(dir, ['--dry-run', '--save-baseline'], {}, runCliInProcess));
    expect(saved).toContain('--dry-run: --save-baseline needs a real run');
    expect(existsSync(join(dir, '.agent-evals', 'baselines', 'main.json'))).toBe(false);

    const base = await runMarked(dir, ['--save-baseline'], {}, runCliInProcess);
    expect(base.code, base.stdout + base.stderr).toBe(0);
    rmSync(join(dir, 'marker.txt'));
    const compared = expectStoppedBeforeTargets(await runMarked(dir, ['--dry-run', '--baseline', 'main'], { BROKEN: '1' }, runCliInProcess));
    expect(compared).toContain('--dry-run: --baseline needs a real run');
  });

  it('a results file a dry run wrote says so, and compare (either side) and rejudge refuse it (exit 2 naming the file)', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
    const dry = await runCliInProcess(['run', '--dry-run', '--json', 'dry.json'], { cwd: dir, env: { MARKER: join(dir, 'marker.txt') } });
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'dry.json'), 'utf8')).run.dryRun).toBe(true);
    const real = await runCliInProcess(['run', '--json', 'real.json'], { cwd: dir, env: { MARKER: join(dir, 'marker.txt') } });
    expect(real.code, real.stdout + real.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8')).run).not.toHaveProperty('dryRun');
    for (const args of [
      ['compare', 'real.json', 'dry.json'],
      ['compare', 'dry.json', 'real.json'],
    ]) {
      const r = await runCliInProcess(args, { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/dry\.json: <(base|head)>: was written by a dry run \(`--dry-run`: placeholder replies, the fake judge\)/);
    }
    const rejudged = await runCliInProcess(['rejudge', 'dry.json'], { cwd: dir });
    expect(rejudged.code).toBe(2);
    expect(rejudged.stderr).toContain('dry.json: <results>: was written by a dry run');
    expect(existsSync(join(dir, 'dry.rejudged.json'))).toBe(false);
  });
});
