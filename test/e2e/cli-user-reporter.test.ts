/**
 * A reporter of the user's own, loaded from a module path (`--reporter ./x.mjs[=path]` or the
 * config's `reporters`, found from the config's folder): it receives every case of the run, with
 * the secrets redacted as the built-in reporters get them; the example under examples/reporters/
 * writes its Markdown summary; a module that is not a reporter module is exit 2 naming it, before
 * any target runs. In process (needs dist/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';

afterAll(() => removeTempDirs());

const SECRET = 'tok-4f9c2a71e8d35b60';

const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  reporters: process.env.CONFIG_REPORTERS ? JSON.parse(process.env.CONFIG_REPORTERS) : undefined,
  targets: {
    // Leaks the service token into its reply on purpose: no reporter may see it.
    agent: (input) => {
      if (process.env.MARKER) writeFileSync(process.env.MARKER, 'called');
      return input === 'leak' ? 'token ' + process.env.SERVICE_TOKEN : 'pass';
    },
  },
};
`;

const EVALS = `suite: s
target: agent
cases:
  - { id: a, input: hold, assert: [{ type: equals, value: pass }] }
  - { id: b, input: hold, repeat: 3, assert: [{ type: equals, value: pass }] }
  - { id: leak, input: leak, assert: [{ type: equals, value: pass }] }
`;

/** Logs every event it gets, one JSON line each, to its `=path`. */
const RECORDER = `import { appendFileSync } from 'node:fs';
export default {
  apiVersion: 1,
  create({ path }) {
    const log = (event, data) => appendFileSync(path, JSON.stringify({ event, data }) + '\\n');
    return {
      onBegin: (info) => log('begin', info),
      onTrialEnd: (c, trial) => log('trial', { key: c.key, reply: trial.reply }),
      onCaseEnd: (result, c) => log('case', { key: c.key, verdict: result.verdict, result }),
      onEnd: (info) => log('end', info),
    };
  },
};
`;

const project = () =>
  writeProject({
    'evals.config.mjs': CONFIG,
    's.eval.yaml': EVALS,
    'my-reporter.mjs': RECORDER,
    'conf/rec.mjs': RECORDER,
    'conf/evals.config.mjs': CONFIG.replace("['*.eval.yaml']", "['../*.eval.yaml']"),
  });

function events(file: string): Array<{ event: string; data: Record<string, unknown> & { key?: string } }> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; data: Record<string, unknown> });
}

describe('a reporter module of the user', () => {
  it('--reporter ./my-reporter.mjs=path receives every case, onBegin and onEnd once, secrets redacted', async () => {
    const dir = project();
    const r = await runCliInProcess(['run', '--reporter', 'terminal', '--reporter', './my-reporter.mjs=events.jsonl', '--json'], { cwd: dir, env: { SERVICE_TOKEN: SECRET } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const log = events(join(dir, 'events.jsonl'));
    expect(log.filter((e) => e.event === 'begin')).toHaveLength(1);
    expect(log.find((e) => e.event === 'begin')!.data).toMatchObject({ cases: 3, trials: 5 });
    // Each case once, in the order they finished.
    expect(
      log
        .filter((e) => e.event === 'case')
        .map((e) => `${e.data.key} ${e.data.verdict as string}`)
        .sort(),
    ).toEqual(['s/a passed', 's/b passed', 's/leak failed']);
    expect(log.filter((e) => e.event === 'trial')).toHaveLength(5);
    const ends = log.filter((e) => e.event === 'end');
    expect(ends).toHaveLength(1);
    expect(ends[0]!.data).toMatchObject({ exitCode: 1, summary: { cases: { total: 3, passed: 2, failed: 1 } } });
    expect(log.at(-1)!.event).toBe('end');
    // The leaked token reached the reporter redacted, as it reached the results document.
    const text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('token [redacted]');
    expect(readFileSync(join(dir, '.out', 'results.json'), 'utf8')).not.toContain(SECRET);
  });

  it('a TypeScript reporter module loads as a config file does', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 's.eval.yaml': EVALS, 'rec.ts': RECORDER.replace('create({ path })', 'create({ path }: { path: string })') });
    const r = await runCliInProcess(['run', '--reporter', './rec.ts=rec.jsonl'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(events(join(dir, 'rec.jsonl')).filter((e) => e.event === 'case')).toHaveLength(3);
  });

  it("the config's reporters name a module from the config's folder, wherever the run starts", async () => {
    const dir = project();
    const r = await runCliInProcess(['run', '-c', 'conf/evals.config.mjs'], { cwd: dir, env: { CONFIG_REPORTERS: JSON.stringify(['./rec.mjs=rec.jsonl']) } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // The module from conf/, its =path from the working directory (as a built-in reporter's).
    expect(events(join(dir, 'rec.jsonl')).filter((e) => e.event === 'case')).toHaveLength(3);
  });

  it('the example reporter writes its Markdown summary, which the terminal names', async () => {
    const dir = project();
    const example = join(REPO_ROOT, 'examples/reporters/markdown-summary.mjs');
    const r = await runCliInProcess(['run', '--reporter', `${example}=summary.md`], { cwd: dir, env: { SERVICE_TOKEN: SECRET } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^# Eval run \S+\n\n2 passed, 1 failed, 0 scored, 0 skipped of 3 cases; exit code 1\.\n/);
    expect(md).toContain('| s/a | pass | 1/1 | 1.00 |');
    expect(md).toContain('| s/b | pass | 3/3 | 1.00 |');
    expect(md).toContain('| s/leak | FAIL | 0/1 | 0.00 |');
    expect(r.stdout).toContain('summary.md');
  });

  it("a throw in its hook during the run is handled as a built-in reporter's: named on stderr, the run and the other reporters carry on", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 's.eval.yaml': EVALS, 'boom.mjs': "export default { apiVersion: 1, create: () => ({ onCaseEnd() { throw new Error('boom'); } }) };" });
    const r = await runCliInProcess(['run', '--reporter', './boom.mjs', '--json'], { cwd: dir });
    expect(r.stderr).toContain('reporter "./boom.mjs" failed in onCaseEnd: boom; it gets no further events, so its output is incomplete');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(JSON.parse(readFileSync(join(dir, '.out', 'results.json'), 'utf8'))).toMatchObject({ summary: { cases: { total: 3 } } });
  });

  const bad: Array<[string, string, RegExp]> = [
    ['no interface', 'export default { create() { return {}; } };', /nope\.mjs: reporter module: its default export must be \{ apiVersion: 1, create\(options\) \}/],
    ['another apiVersion', 'export default { apiVersion: 2, create() { return {}; } };', /nope\.mjs: reporter module: it is written for reporter apiVersion 2; this agent-evals speaks apiVersion 1/],
    ['a throw at load', "throw new Error('broken on purpose');", /nope\.mjs: cannot load: broken on purpose/],
    ['a throw in create', "export default { apiVersion: 1, create() { throw new Error('no thanks'); } };", /nope\.mjs: reporter module: create\(\) threw: no thanks/],
    ['a hook that is not a function', 'export default { apiVersion: 1, create: () => ({ onEnd: 3 }) };', /nope\.mjs: reporter module: create\(\) returned a reporter whose onEnd is not a function/],
    [
      'a misspelt hook (it would never be called)',
      'export default { apiVersion: 1, create: () => ({ onCaseEnded() {}, onEnd() {} }) };',
      /nope\.mjs: reporter module: create\(\) returned a reporter with onCaseEnded, which is no hook of apiVersion 1 and would never be called \(the hooks: onBegin, onTrialEnd, onCaseEnd, onWarning, onEnd, written\)/,
    ],
    [
      'a class whose method is named like a hook but is none',
      'class R { onEnd() {} onRunEnd() {} } export default { apiVersion: 1, create: () => new R() };',
      /nope\.mjs: reporter module: create\(\) returned a reporter with onRunEnd, which is no hook/,
    ],
  ];
  for (const [what, source, message] of bad) {
    it(`a module with ${what} is exit 2 naming it, no target called`, async () => {
      const dir = writeProject({ 'evals.config.mjs': CONFIG, 's.eval.yaml': EVALS, 'nope.mjs': source });
      const err = expectStoppedBeforeTargets(await runMarked(dir, ['--reporter', './nope.mjs'], {}, runCliInProcess));
      expect(err).toMatch(message);
    });
  }

  it('a missing module and an unknown name are exit 2 too', async () => {
    const dir = project();
    const missing = await runCliInProcess(['run', '--reporter', './gone.mjs'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('./gone.mjs: cannot load');
    expect(missing.stderr).not.toMatch(STACK_FRAME);
    const unknown = await runCliInProcess(['run', '--reporter', 'markdown'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown reporter "markdown" (known: terminal, json, junit, html, github; or a module path such as ./my-reporter.mjs)');
    expect(existsSync(join(dir, '.out', 'results.json'))).toBe(false);
  });
});
