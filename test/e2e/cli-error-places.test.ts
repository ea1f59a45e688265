/**
 * Errors name the right place: the API-key check covers only the selected cases and names who
 * needs the key; a bad `--judge` blames the flag, a bad config judge the config file; a config
 * target of the wrong shape names the shape; and what a file alone shows to be wrong (a missing
 * reference, a conversation on a command target) stops the run at load time. Every one exits 2
 * before any target or model is called. The CLI's `main` runs in-process (the messages are the subject).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readCountFile, removeTempDirs, STACK_FRAME, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { readResults } from '../support/results-helpers.js';

const servers: FakeProvider[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  removeTempDirs();
});

/** A command agent that records each call in COUNT_FILE and answers with a fixed reply. */
const AGENT = `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const trial = JSON.parse(input);
  appendFileSync(process.env.COUNT_FILE, trial.suite + '/' + trial.id + '\\n');
  process.stdout.write(JSON.stringify({ reply: 'Order A1 shipped on Monday.' }));
});
`;

interface Project {
  dir: string;
  /** The fake OpenAI server every model of the project points at; it counts requests. */
  fake: FakeProvider;
  countFile: string;
  run(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
  calls(): string[];
}

/**
 * A throwaway project: `configBody` is the object literal of evals.config.mjs (FAKE_URL is the
 * fake OpenAI server), `files` the eval files. The parent's keys and judge variables never leak in.
 */
async function project(configBody: string, files: Record<string, string>): Promise<Project> {
  const fake = await startFakeOpenAI({ script: () => ({ json: { answer: 'yes', reason: 'ok', evidence: [] } }) });
  servers.push(fake);
  const dir = tempDir();
  const countFile = join(dir, 'calls.txt');
  writeFileSync(join(dir, 'agent.mjs'), AGENT);
  writeFileSync(join(dir, 'evals.config.mjs'), `const FAKE_URL = process.env.FAKE_URL;\nexport default ${configBody};\n`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const base = {
    COUNT_FILE: countFile,
    FAKE_URL: fake.url,
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    TEAM_KEY: undefined,
    EVALS_JUDGE_PROVIDER: undefined,
    EVALS_JUDGE_MODEL: undefined,
    OPENAI_BASE_URL: fake.url,
  };
  return {
    dir,
    fake,
    countFile,
    run: (args, env = {}) => runCliInProcess(args, { cwd: dir, env: { ...base, ...env } }),
    calls: () => readCountFile(countFile),
  };
}

const TARGETS = `{
    cli: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH', 'COUNT_FILE'] },
    'model-agent': { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: FAKE_URL } },
  }`;

function config(extra = ''): string {
  return `{ evals: ['**/*.eval.{yaml,ts}'], outputDir: '.out', targets: ${TARGETS}, ${extra} }`;
}

/** Exit 2, one error message (the whole of stderr), no stack trace, no target and no model called. */
function expectStopped(r: CliResult, p: Project): string {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toContain('internal error');
  expect(p.calls(), 'a target ran despite the bad input').toEqual([]);
  expect(p.fake.count, 'a model was called despite the bad input').toBe(0);
  return r.stderr.trim();
}

const judgedCase = (id: string) => `  - id: ${id}\n    input: Where is order A1?\n    assert:\n      - type: closedQa\n        question: Does it give the shipping status?\n`;
const plainCase = (id: string) => `  - id: ${id}\n    input: Where is order A1?\n    assert:\n      - type: contains\n        value: shipped\n`;

describe.concurrent('the API-key check covers the selected cases and names who needs the key', () => {
  it('a config judge used by one case: named by that case; a selection without it needs no key', async () => {
    const p = await project(config(`judge: { provider: 'openai', model: 'gpt-4.1-nano', baseURL: FAKE_URL }`), {
      'support.eval.yaml': `suite: support/refunds\ntarget: cli\ncases:\n${judgedCase('verify')}${plainCase('plain')}`,
    });
    const stderr = expectStopped(await p.run(['run']), p);
    expect(stderr).toBe('agent-evals: OPENAI_API_KEY is not set: needed by the judge of support/refunds/verify (config judge)');

    // Only the deterministic case selected: no key needed, the run goes ahead.
    const ok = await p.run(['run', '--filter', 'support/refunds/plain']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(p.calls()).toEqual(['support/refunds/plain']);
  });

  it('a model target is named, and many cases of one judge are grouped with a count', async () => {
    const p = await project(config(`judge: 'openai:gpt-4.1-nano'`), {
      'model.eval.yaml': `suite: m\ntarget: model-agent\ncases:\n${plainCase('one')}`,
      'many.eval.yaml': `suite: s\ntarget: cli\ncases:\n${['a', 'b', 'c', 'd', 'e'].map(judgedCase).join('')}`,
    });
    const stderr = expectStopped(await p.run(['run']), p);
    expect(stderr).toBe('agent-evals: OPENAI_API_KEY is not set: needed by target "model-agent"; the judges of s/a, s/b, s/c and 2 more cases (config judge)');
    // The model target alone.
    expect(expectStopped(await p.run(['run', '--filter', 'm/*']), p)).toBe('agent-evals: OPENAI_API_KEY is not set: needed by target "model-agent"');
    // With the key set the judge needs none other, and the run goes ahead.
    const ok = await p.run(['run', '--filter', 's/a'], { OPENAI_API_KEY: 'test-key' });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  });

  it("a named judge's own key variable, with the level that chose it", async () => {
    const p = await project(config(`judges: { auditor: { provider: 'openai', model: 'gpt-4.1-nano', apiKeyEnv: 'TEAM_KEY', baseURL: FAKE_URL } }`), {
      'named.eval.yaml': `suite: n\ntarget: cli\ncases:\n${judgedCase('x')}        judge: auditor\n`,
    });
    const stderr = expectStopped(await p.run(['run'], { OPENAI_API_KEY: 'other' }), p);
    expect(stderr).toBe('agent-evals: TEAM_KEY is not set: needed by the judge of n/x (assertion judge "auditor")');
    // A judge named from the config's judges survives a --judge that is not itself a configured name,
    // so its key is still the one needed.
    const flagged = expectStopped(await p.run(['run', '--judge', 'anthropic:claude-haiku-4-5'], { OPENAI_API_KEY: 'other' }), p);
    expect(flagged).toBe('agent-evals: TEAM_KEY is not set: needed by the judge of n/x (assertion judge "auditor")');
  });
});

describe.concurrent('a bad judge is blamed on whoever named it', () => {
  it('--judge nosuchjudge blames the flag, not an eval file', async () => {
    const p = await project(config(`judges: { auditor: 'fake' }`), {
      'plain.eval.yaml': `suite: p\ntarget: cli\ncases:\n${judgedCase('a')}`,
    });
    for (const extra of [[], ['--dry-run']]) {
      const stderr = expectStopped(await p.run(['run', '--judge', 'nosuchjudge', ...extra]), p);
      expect(stderr).toBe('agent-evals: --judge nosuchjudge: expected "provider:model" (e.g. "openai:gpt-4.1-mini") or the name of a judge in the config\'s `judges` (configured: auditor)');
    }
    const bad = expectStopped(await p.run(['run', '--judge', 'mistral:large']), p);
    expect(bad).toMatch(/^agent-evals: --judge mistral:large: invalid model spec "mistral:large": /);
    expect(bad).not.toContain('.eval.yaml');
  });

  it('a bad config `judge:` blames the config file, never the eval file without a judge line', async () => {
    const files = { 'plain.eval.yaml': `suite: p\ntarget: cli\ncases:\n${judgedCase('a')}` };
    const byName = await project(config(`judge: 'nosuchjudge'`), files);
    expect(expectStopped(await byName.run(['run']), byName)).toBe('agent-evals: evals.config.mjs: judge: unknown judge "nosuchjudge" (add it under `judges` in the config)');
    const byShape = await project(config(`judge: { provider: 'openai', model: 'gpt-4.1-nano', temprature: 0 }`), files);
    const stderr = expectStopped(await byShape.run(['run'], { OPENAI_API_KEY: 'k' }), byShape);
    expect(stderr).toMatch(/^agent-evals: evals\.config\.mjs: judge: invalid model spec .*temprature/);
    // Also for `list`: the config itself is wrong.
    expect(expectStopped(await byShape.run(['list']), byShape)).toBe(stderr);
  });

  it('a judge from the environment blames the variables, and is named as such when its key is missing', async () => {
    const p = await project(config(), { 'plain.eval.yaml': `suite: p\ntarget: cli\ncases:\n${judgedCase('a')}` });
    const bad = expectStopped(await p.run(['run'], { EVALS_JUDGE_PROVIDER: 'mistral', EVALS_JUDGE_MODEL: 'large' }), p);
    expect(bad).toMatch(/^agent-evals: EVALS_JUDGE_PROVIDER \/ EVALS_JUDGE_MODEL: invalid model spec "mistral:large": /);
    expect(bad).not.toContain('evals.config.mjs');
    const keyless = expectStopped(await p.run(['run'], { EVALS_JUDGE_PROVIDER: 'anthropic', EVALS_JUDGE_MODEL: 'claude-haiku-4-5' }), p);
    expect(keyless).toBe('agent-evals: ANTHROPIC_API_KEY is not set: needed by the judge of p/a (EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL)');
  });
});

describe.concurrent('a config target of the wrong shape names the shape it looks like', () => {
  const cases: Array<[string, string]> = [
    [
      `{ command: 'node agent.mjs' }`,
      'targets.m: expected { command: string[], cwd?: string, env?: { [name]: string }, inheritEnv?: string[], timeoutMs?: number, maxOutputBytes?: number } (a command target): command: expected array, received string',
    ],
    [
      `{ url: 'http://127.0.0.1:1', header: {} }`,
      'targets.m: expected { url: string, headers?: { [name]: string }, timeoutMs?: number, proxy?: string | false } (an HTTP target): unknown field "header"',
    ],
    [
      `{ url: 'localhost:3000' }`,
      'targets.m: expected { url: string, headers?: { [name]: string }, timeoutMs?: number, proxy?: string | false } (an HTTP target): url: expected an http:// or https:// URL',
    ],
    [
      `{ model: 42 }`,
      'targets.m: expected { model: "provider:model" | { provider, model, ... }, instructions?, instructionsFile?, tools?, maxSteps?, ... } (a model-agent target): model: expected string or object',
    ],
    // A misspelt provider: the file and the field, not only the target when the run builds it.
    [`{ model: 'opneai:gpt-5.4-mini' }`, 'targets.m.model: invalid model spec "opneai:gpt-5.4-mini": expected "<provider>:<model>" with provider one of: openai, anthropic'],
    [`{ comand: ['node'] }`, 'targets.m: expected a target: a function (input, ctx) => reply (a function target), or { command: string[]'],
  ];
  for (const [target, message] of cases) {
    it(target, async () => {
      const p = await project(`{ evals: ['**/*.eval.yaml'], outputDir: '.out', targets: { m: ${target}, cli: { command: ['node', 'agent.mjs'] } } }`, {
        'plain.eval.yaml': `suite: p\ntarget: cli\ncases:\n${plainCase('a')}`,
      });
      const stderr = expectStopped(await p.run(['run']), p);
      expect(stderr).toContain(`agent-evals: evals.config.mjs: ${message}`);
      expect(stderr).not.toContain('Invalid input');
    });
  }
});

describe.concurrent('what a file alone shows to be wrong is a load error at its line', () => {
  const yaml = (assertion: string, caseExtra = '') =>
    `suite: r\ntarget: cli\ncases:\n${plainCase('fine')}  - id: bad\n    input: Compare\n${caseExtra}    assert:\n      - type: contains\n        value: shipped\n${assertion}`;
  const cases: Array<[string, string]> = [
    ['      - type: factuality\n', 'factuality needs a reference: set `reference` on the assertion or the case'],
    ['      - type: judgeAgainst\n        criteria: Same facts?\n', 'judgeAgainst needs a reference: set `reference` on the assertion or the case'],
    ['      - type: sql\n', 'sql needs a reference: set `reference` on the assertion or the case'],
    ['      - type: pairwise\n', 'pairwise needs the other answer: set `comparedTo` on the assertion or `reference` on the case'],
  ];
  for (const [assertion, message] of cases) {
    it(assertion.trim(), async () => {
      const p = await project(config(`judge: 'fake'`), { 'ref.eval.yaml': yaml(assertion) });
      const stderr = expectStopped(await p.run(['run']), p);
      // Line 14: the assertion itself (after the valid case's 6 lines and the bad case's first 7).
      expect(stderr).toBe(`agent-evals: ref.eval.yaml:14: cases[1].assert[1]: ${message}`);
      // A reference on the case satisfies every one of them.
      const withRef = await project(config(`judge: 'fake'`), { 'ref.eval.yaml': yaml(assertion, '    reference: Order A1 shipped.\n') });
      const ok = await withRef.run(['run']);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    });
  }

  it('a turn assertion and a TS `assert` array are checked too', async () => {
    const p = await project(config(`judge: 'fake'`), {
      'turns.eval.yaml': `suite: t\ntarget: model-agent\ncases:\n  - id: c\n    turns:\n      - input: hi\n        assert:\n          - type: sql\n`,
      'refs.eval.ts': `export default {\n  suite: 'ts',\n  target: 'cli',\n  cases: [\n    { id: 'fine', input: 'x', assert: [{ type: 'contains', value: 'x' }] },\n    { id: 'no-ref', input: 'x', assert: [{ type: 'pairwise' }] },\n  ],\n};\n`,
    });
    const stderr = expectStopped(await p.run(['run']), p);
    expect(stderr.split('\n').sort()).toEqual(
      [
        'agent-evals: refs.eval.ts:6: cases[1].assert[0]: pairwise needs the other answer: set `comparedTo` on the assertion or `reference` on the case',
        'turns.eval.yaml:8: cases[0].turns[0].assert[0]: sql needs a reference: set `reference` on the assertion or the case',
      ].sort(),
    );
  });

  it('a multi-turn case on a command target', async () => {
    const p = await project(config(), {
      'chat.eval.yaml': `suite: chat\ntarget: cli\ncases:\n${plainCase('one')}  - id: two-turns\n    turns:\n      - input: hi\n      - input: again\n        assert:\n          - type: contains\n            value: x\n`,
    });
    const stderr = expectStopped(await p.run(['run']), p);
    expect(stderr).toBe(
      'agent-evals: chat.eval.yaml:9: turns: this case has 2 turns, but target "cli" is a command target (one process per trial), which cannot hold a conversation; multi-turn needs a function, model or HTTP target',
    );
  });

  it('a judged assertion built in check() without a reference fails its case clearly at run time', async () => {
    const p = await project(config(`judge: 'fake'`), {
      'check.eval.ts': `export default {\n  suite: 'chk',\n  target: 'cli',\n  cases: [{ id: 'no-ref', input: 'x', check: (t) => { t.judge().factuality(); } }],\n};\n`,
    });
    const json = join(p.dir, 'results.json');
    const r = await p.run(['run', '--json', json]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const trial = readResults(json).cases[0]!.trials[0]!;
    expect(trial.assertions).toEqual([
      expect.objectContaining({
        kind: 'factuality',
        status: 'error',
        severity: 'gate',
        message: expect.stringContaining('factuality needs a reference: set `reference` on the assertion or the case'),
      }),
    ]);
    expect(p.fake.count).toBe(0);
  });
});
