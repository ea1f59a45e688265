/**
 * Bad input stops the run before any target is called (exit 2, file and line named, no stack
 * trace), and `list` (its JSON rows and its lines). Which cases a selection picks is tested
 * in-process in test/cli/selection.test.ts. The CLI's `main` runs in-process; an unknown flag goes
 * through the spawned binary (argv to exit code end to end).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectUsageError, explain, runFixture } from '../support/fixture-run.js';
import { runJudgeCli } from '../judges/cli-helpers.js';

afterAll(removeTempDirs);

describe.concurrent('bad input exits 2 before any target runs', () => {
  // Each bad file is loaded next to a valid file whose target counts its calls.
  it('broken YAML syntax names the file and line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/broken-syntax.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/bad\/broken-syntax\.eval\.yaml:[78]: YAML syntax error/);
  });

  it('a TypeScript eval file that does not parse is named by its relative path and line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/broken-syntax.eval.ts'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/^agent-evals: bad\/broken-syntax\.eval\.ts:5: cannot load: /m);
  });

  it('an unknown assertion type names file, line, field and the type', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/unknown-type.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('unknown assertion type');
    expect(err).toContain('"containz"');
    expect(err).toContain('bad/unknown-type.eval.yaml:13');
    expect(err).toContain('cases[1].assert[1].type');
    // The message lists the known types, so the typo is easy to fix.
    expect(err).toMatch(/known: .*\bcontains\b/);
  });

  it('a duplicate case id across two files names both places', async () => {
    const r = await runFixture('runner', ['run', 'bad/dup-a.eval.yaml', 'bad/dup-b.eval.yaml', 'evals/flaky.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('duplicate case id "dup/same"');
    expect(err).toContain('bad/dup-b.eval.yaml:7');
    expect(err).toContain('bad/dup-a.eval.yaml:4');
  });

  it('a target missing from the config names the file and the configured targets', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/missing-target.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/bad\/missing-target\.eval\.yaml:\d+: target: unknown target "no-such-agent"/);
    expect(err).toContain('scripted');
  });

  it('with no targets configured, the unknown target names the config file the run read (init writes evals.config.mjs)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { judge: 'fake' };\n");
    writeFileSync(join(dir, 'a.eval.yaml'), 'suite: s\ntarget: agent\ncases:\n  - id: c\n    input: hi\n    assert: [{ type: contains, value: hi }]\n');
    const r = await runCliInProcess(['run', 'a.eval.yaml'], { cwd: dir });
    expect(r.stderr, explain(r)).toBe('agent-evals: a.eval.yaml:2: target: unknown target "agent" (configured: none: add `targets` to evals.config.mjs)\n');
    expect(r.code).toBe(2);
    const flag = await runCliInProcess(['run', 'a.eval.yaml', '--target', 'agent'], { cwd: dir });
    expect(flag.stderr, explain(flag)).toBe('agent-evals: --target: unknown target "agent" (configured: none: add `targets` to evals.config.mjs)\n');
  });

  it('a half-set EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL with no config judge is exit 2 before any target (it read as no judge: every judged trial failed after the targets ran)', async () => {
    const dir = tempDir();
    const marker = join(dir, 'called.txt');
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      `import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';\nexport default { targets: { agent: () => (writeFileSync(${JSON.stringify(marker)}, 'x'), 'hi') } };\n`,
    );
    writeFileSync(join(dir, 'a.eval.yaml'), 'suite: s\ntarget: agent\ncases:\n  - id: c\n    input: hi\n    assert: [{ type: judge, criteria: says hi }]\n');
    const noModel = await runCliInProcess(['run', 'a.eval.yaml'], { cwd: dir, env: { EVALS_JUDGE_PROVIDER: 'openai', EVALS_JUDGE_MODEL: undefined } });
    expect(noModel.stderr, explain(noModel)).toBe('agent-evals: EVALS_JUDGE_PROVIDER is "openai" but EVALS_JUDGE_MODEL is not set: set it too (or EVALS_JUDGE_MODEL=openai:<model> alone)\n');
    expect(noModel.code).toBe(2);
    const noProvider = await runCliInProcess(['run', 'a.eval.yaml'], { cwd: dir, env: { EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: 'gpt-5.4-mini' } });
    expect(noProvider.stderr, explain(noProvider)).toMatch(/^agent-evals: EVALS_JUDGE_MODEL is "gpt-5\.4-mini" with no provider: set EVALS_JUDGE_PROVIDER too, or write it as provider:model/);
    expect(noProvider.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
    // The fake alone, as before, is a whole judge.
    const fake = await runCliInProcess(['run', 'a.eval.yaml'], { cwd: dir, env: { EVALS_JUDGE_PROVIDER: 'fake', EVALS_JUDGE_MODEL: undefined } });
    expect(fake.code, explain(fake)).toBe(0);
  });

  it('a misspelt command, which arrives at `run` as a path, names the command meant; a file of that name is still run', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { targets: { agent: () => 'hi' } };\n");
    for (const [typed, meant] of [
      ['rnu', 'run'],
      ['doctr', 'doctor'],
      ['comapre', 'compare'],
    ]) {
      const r = await runCliInProcess([typed!], { cwd: dir });
      expect(r.stderr, explain(r)).toBe(`agent-evals: no command or file "${typed}": did you mean the command "${meant}"? (see agent-evals --help)\n`);
      expect(r.code).toBe(2);
    }
    expect((await runCliInProcess(['banana'], { cwd: dir })).stderr).toBe('agent-evals: no such file or directory: banana\n');
    // A folder that happens to be named like a command is what the user meant.
    writeFileSync(join(dir, 'a.eval.yaml'), 'suite: s\ntarget: agent\ncases:\n  - { id: c, input: hi, assert: [{ type: contains, value: hi }] }\n');
    mkdirSync(join(dir, 'rnu'));
    renameSync(join(dir, 'a.eval.yaml'), join(dir, 'rnu', 'a.eval.yaml'));
    const folder = await runCliInProcess(['rnu'], { cwd: dir });
    expect(folder.code, explain(folder)).toBe(0);
  });

  it('a misspelt key over a block list is named at its own line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { targets: { agent: () => 'hi' } };\n");
    writeFileSync(join(dir, 'a.eval.yaml'), 'suite: s\ntarget: agent\ncases:\n  - id: c\n    input: hi\n    asert:\n      - type: contains\n        value: hi\n');
    const r = await runCliInProcess(['run', 'a.eval.yaml'], { cwd: dir });
    expect(r.stderr, explain(r)).toMatch(/^agent-evals: a\.eval\.yaml:6: cases\[0\]\.asert: unknown field "asert" \(did you mean "assert"\?\)$/m);
    expect(r.code).toBe(2);
  });

  it('several bad files are reported together', async () => {
    const r = await runFixture('runner', ['run', 'bad/unknown-type.eval.yaml', 'bad/missing-target.eval.yaml', 'evals/flaky.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('unknown assertion type');
    expect(err).toContain('unknown target "no-such-agent"');
  });

  it('a config with an unknown key names the config file and the key', async () => {
    const r = await runFixture('bad-config', ['run'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('evals.config.mjs');
    expect(err).toContain('concurency');
  });

  it('--filter that matches nothing', async () => {
    const r = await runFixture('runner', ['run', '--filter', 'nomatch'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('no case matches --filter nomatch');
  });

  it('--tag that no case has names the tag meant when one is near; none when none is', async () => {
    const near = expectUsageError(await runFixture('runner', ['run', '--tag', 'flakey'], runCliInProcess));
    expect(near).toMatch(/no case matches --tag flakey \(\d+ cases loaded; `agent-evals list` shows them\); did you mean --tag flaky\?$/m);
    const far = expectUsageError(await runFixture('runner', ['run', '--tag', 'zzzzzz'], runCliInProcess));
    expect(far).toMatch(/no case matches --tag zzzzzz \(\d+ cases loaded; `agent-evals list` shows them\)$/m);
  });

  it('an unknown flag', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', '--no-such-flag']);
    const err = expectUsageError(r);
    expect(err).toContain("unknown option '--no-such-flag'");
  });

  it('an invalid flag value', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', '--repeat', '0'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/--repeat/);
  });

  it('a path that does not exist', async () => {
    const r = await runFixture('runner', ['run', 'evals/nope.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toContain('evals/nope.eval.yaml');
  });
});

interface ListRow {
  key: string;
  file: string;
  line: number | null;
  target: string;
  repeat: number;
  passRate: number;
  tags: string[];
}

describe.concurrent('list', () => {
  it('list --json shows every case of the config globs, with file, line, target and tags', async () => {
    const r = await runFixture('runner', ['list', '--json'], runCliInProcess);
    expect(r.code, explain(r)).toBe(0);
    const rows = JSON.parse(r.stdout) as ListRow[];
    const keys = rows.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['select/alpha-only', 'select/beta-only', 'select/alpha-beta', 'flaky/rate-08', 'errors/slow']));
    // extra/ is outside the config's evals glob; bad/ too.
    expect(keys.some((k) => k.startsWith('command-timeout/') || k.startsWith('dup/'))).toBe(false);
    expect(rows.find((c) => c.key === 'select/alpha-beta')).toEqual({
      key: 'select/alpha-beta',
      file: 'evals/select.eval.yaml',
      line: 13,
      target: 'scripted',
      repeat: 1,
      passRate: 1,
      tags: ['sel', 'alpha', 'beta'],
    });
    expect(rows.find((c) => c.key === 'flaky/rate-08')).toMatchObject({ passRate: 0.8 });
  });

  it('list prints one line per case and a total, honouring --repeat', async () => {
    const r = await runFixture('runner', ['list', 'evals/select.eval.yaml', '--repeat', '4'], runCliInProcess);
    expect(r.code, explain(r)).toBe(0);
    expect(r.stdout).toContain('select/alpha-only  ×4  evals/select.eval.yaml:5  → scripted  [sel, alpha]');
    expect(r.stdout).toContain('select/beta-only  ×4  evals/select.eval.yaml:9');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('3 cases, 12 trials');
    expect(r.calls()).toEqual([]);
  });
});

describe.concurrent('judge keys in the config', () => {
  it('a config key outside its range is a load error naming the field (exit 2)', async () => {
    const dir = tempDir('agent-evals-soft-judged-config-');
    const config = join(dir, 'bad.config.mjs');
    writeFileSync(config, "export default { judgeThreshold: 1.5, judgeSeverity: 'hard' };\n");
    const r = await runJudgeCli('judges-soft', ['run', '-c', config]);
    expect(r.code, explain(r)).toBe(2);
    expect(r.stderr).toMatch(/judgeThreshold/);
    expect(r.stderr).toMatch(/judgeSeverity/);
  });
});
