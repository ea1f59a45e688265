/**
 * The CLI on GitHub Actions: with GITHUB_ACTIONS=true and no reporter chosen the `github` reporter
 * is on by itself, and its annotations name files relative to GITHUB_WORKSPACE, so a job with a
 * `working-directory:` one level below the checkout still annotates `sub/evals/x.eval.yaml`. A
 * chosen reporter (flag or config) leaves it off. The terminal ends naming the files it wrote.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(removeTempDirs);

/** A failing case on line 4 of `evals/x.eval.yaml`, in `<workspace>/sub`. */
function monorepo(config = ''): { workspace: string; project: string } {
  const workspace = tempDir('agent-evals-gha-');
  const project = join(workspace, 'sub');
  const files: Record<string, string> = {
    'agent.mjs': `process.stdout.write(JSON.stringify({ reply: 'nope' }));\n`,
    'evals.config.mjs': `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH'] } }, ${config} };\n`,
    'evals/x.eval.yaml': `suite: x\ntarget: agent\ncases:\n  - id: fails\n    input: hi\n    assert: [{ type: contains, value: yes }]\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    writeFileSync(join(project, name), text);
  }
  return { workspace, project };
}

const ANNOTATION = /^::error file=([^,]+),line=4,title=x\/fails failed 0\/1/m;

describe.concurrent('on GitHub Actions', () => {
  it('annotates files relative to GITHUB_WORKSPACE, with the github reporter on by itself', async () => {
    const { workspace, project } = monorepo();
    const r = await runCliInProcess(['run'], { cwd: project, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout.match(ANNOTATION)?.[1]).toBe('sub/evals/x.eval.yaml');
  });

  it('annotates cwd-relative paths without GITHUB_WORKSPACE', async () => {
    const { project } = monorepo();
    const r = await runCliInProcess(['run'], { cwd: project, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout.match(ANNOTATION)?.[1]).toBe('evals/x.eval.yaml');
  });

  it.each([
    ['--reporter on the command line', [], ['--reporter', 'terminal']],
    ['reporters in the config', [`reporters: ['terminal']`], []],
  ])('stays off when a reporter was chosen: %s', async (_, config, args) => {
    const { workspace, project } = monorepo(config.join(''));
    const r = await runCliInProcess(['run', ...args], { cwd: project, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('x/fails');
    expect(r.stdout).not.toContain('::error');
  });

  it('is off outside GitHub Actions', async () => {
    const { workspace, project } = monorepo();
    const r = await runCliInProcess(['run'], { cwd: project, env: { GITHUB_WORKSPACE: workspace } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('::error');
  });
});

describe('the terminal', () => {
  it('ends naming each file the run wrote: results JSON, JUnit, saved baseline, a named step summary', async () => {
    const { project } = monorepo();
    const r = await runCliInProcess(['run', '--json', 'reports/results.json', '--reporter', 'junit=junit.xml', '--reporter', 'github=summary.md', '--save-baseline'], { cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const wrote = r.stdout.split('\n').filter((l) => l.startsWith('wrote '));
    expect(wrote).toEqual(['wrote junit.xml', 'wrote summary.md', 'wrote reports/results.json', `wrote ${join('.out', 'baselines', 'main.json')}`]);
    // They close the run's output.
    expect(r.stdout.trimEnd().split('\n').slice(-4)).toEqual(wrote);
  });

  it('names none with --silent', async () => {
    const { project } = monorepo();
    const r = await runCliInProcess(['run', '--silent', '--json', 'results.json'], { cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('wrote');
  });
});
