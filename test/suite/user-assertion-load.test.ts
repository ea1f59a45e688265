import { describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load-config.js';
import { loadYamlEvalFile } from '../../src/suite/load-yaml.js';
import { loadTsEvalFile } from '../../src/suite/load-ts.js';
import { UserError } from '../../src/core/errors.js';
import { REPO_ROOT } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';

const example = join(REPO_ROOT, 'examples', 'assertions');
const config = (assertions: string[]) => `export default { evals: ['*.eval.yaml'], assertions: ${JSON.stringify(assertions)}, targets: { echo: { command: ['node', 'echo-agent.mjs'] } } };\n`;

function project(files: Record<string, string>): string {
  const dir = writeProject(files);
  cpSync(join(example, 'word-count.mjs'), join(dir, 'word-count.mjs'));
  return dir;
}

async function loadError(p: Promise<unknown>): Promise<UserError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UserError);
  return e as UserError;
}

describe('user assertions from the config', () => {
  it('load from a module path, and a YAML `- type: <name>` becomes that assertion with its options', async () => {
    const dir = project({
      'evals.config.mjs': config(['./word-count.mjs']),
      'a.eval.yaml': 'suite: a\ntarget: echo\ncases:\n  - id: c\n    input: hi\n    assert:\n      - type: wordCount\n        max: 5\n        severity: soft\n',
    });
    const { userAssertions } = await loadConfig({ cwd: dir });
    expect(userAssertions.get('wordCount')?.apiVersion).toBe(1);
    const loaded = await loadYamlEvalFile(join(dir, 'a.eval.yaml'), 'a.eval.yaml', userAssertions);
    expect(loaded.data.cases?.[0]?.assert).toEqual([{ type: 'userAssertion', name: 'wordCount', options: { max: 5 }, severity: 'soft' }]);
  });

  it('options that break its schema are a load error naming file, line and field', async () => {
    const dir = project({
      'evals.config.mjs': config(['./word-count.mjs']),
      'a.eval.yaml': 'suite: a\ntarget: echo\ncases:\n  - id: c\n    input: hi\n    assert:\n      - type: contains\n        value: hi\n      - type: wordCount\n        max: five\n',
    });
    const { userAssertions } = await loadConfig({ cwd: dir });
    const e = await loadError(loadYamlEvalFile(join(dir, 'a.eval.yaml'), 'a.eval.yaml', userAssertions));
    expect(e.message).toMatch(/^a\.eval\.yaml:9: cases\[0\]\.assert\[1\]: wordCount: .*max.*integer/);
  });

  it('an unlisted name stays an unknown type', async () => {
    const dir = project({ 'evals.config.mjs': config([]), 'a.eval.yaml': 'suite: a\ntarget: echo\ncases:\n  - id: c\n    input: hi\n    assert:\n      - type: wordCount\n        max: 5\n' });
    const { userAssertions } = await loadConfig({ cwd: dir });
    const e = await loadError(loadYamlEvalFile(join(dir, 'a.eval.yaml'), 'a.eval.yaml', userAssertions));
    expect(e.message).toMatch(/wordCount/);
  });

  it("two configs loaded in one process keep their own: an eval file resolves against its run's config only", async () => {
    const yaml = 'suite: a\ntarget: echo\ncases:\n  - id: c\n    input: hi\n    assert:\n      - type: wordCount\n        max: 5\n';
    const withIt = project({ 'evals.config.mjs': config(['./word-count.mjs']), 'a.eval.yaml': yaml });
    const without = project({ 'evals.config.mjs': config([]), 'a.eval.yaml': yaml });
    const first = await loadConfig({ cwd: withIt });
    // Loaded after the first: a process-wide registry would now hold nothing (or the last config's).
    const second = await loadConfig({ cwd: without });
    const loaded = await loadYamlEvalFile(join(withIt, 'a.eval.yaml'), 'a.eval.yaml', first.userAssertions);
    expect(loaded.data.cases?.[0]?.assert).toEqual([{ type: 'userAssertion', name: 'wordCount', options: { max: 5 } }]);
    const e = await loadError(loadYamlEvalFile(join(without, 'a.eval.yaml'), 'a.eval.yaml', second.userAssertions));
    expect(e.message).toMatch(/wordCount/);
  });

  it('a name a built-in assertion has is refused, naming the config entry', async () => {
    const clash = "export default { apiVersion: 1, name: 'contains', evaluate: () => true };\n";
    const dir = project({ 'evals.config.mjs': config(['./word-count.mjs', './clash.mjs']), 'clash.mjs': clash });
    const e = await loadError(loadConfig({ cwd: dir }));
    expect(e.message).toBe('evals.config.mjs: assertions[1]: ./clash.mjs: "contains" is the name of a built-in assertion; give yours another name');
  });

  it('a module without a valid descriptor is refused, saying what is wrong', async () => {
    const dir = project({ 'evals.config.mjs': config(['./old.mjs']), 'old.mjs': "export default { apiVersion: 0, name: 'old', evaluate: () => true };\n" });
    const e = await loadError(loadConfig({ cwd: dir }));
    expect(e.message).toMatch(/assertions\[0\]: \.\/old\.mjs: apiVersion is 0/);
  });

  it('a module that cannot be imported names the config file and the entry, not our loader', async () => {
    const dir = project({ 'evals.config.mjs': config(['./word-count.mjs', './missing.mjs', './broken.mjs']), 'broken.mjs': "export default { apiVersion: 1, name: 'b' ;\n" });
    const e = await loadError(loadConfig({ cwd: dir }));
    const [missing, broken] = e.message.split('\n');
    expect(missing).toMatch(/^evals\.config\.mjs: assertions\[1\]: \.\/missing\.mjs: cannot load: Cannot find module '[^']*missing\.mjs'$/);
    expect(broken).toMatch(/^evals\.config\.mjs: assertions\[2\]: \.\/broken\.mjs(:\d+)?: cannot load: /);
  });

  it("a TS file's assert naming a user assertion as its type says how a TS file calls it, not that the type is unknown", async () => {
    const ts = "export default { suite: 't', target: 'echo', cases: [{ id: 'c', input: 'hi', assert: [{ type: 'wordCount', max: 5 }] }] };\n";
    const dir = project({ 'evals.config.mjs': config(['./word-count.mjs']), 't.eval.mjs': ts });
    const { userAssertions } = await loadConfig({ cwd: dir });
    const e = await loadError(loadTsEvalFile(join(dir, 't.eval.mjs'), 't.eval.mjs', undefined, userAssertions));
    expect(e.message).toBe(
      "t.eval.mjs:1: cases[0].assert[0].type: \"wordCount\" is a user assertion of the config: in a TypeScript eval file, call it in check(t) as t.assertion('wordCount', { … }), or write { type: 'userAssertion', name: 'wordCount', options: { … } } in assert",
    );
  });
});
