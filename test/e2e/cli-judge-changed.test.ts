/**
 * A comparison that knows the judge (the built CLI's `main`, in-process), with a fake OpenAI judge on 127.0.0.1 that scores 0 when asked by
 * gpt-4.1-nano or about criteria marked EDITED, 1 otherwise. The agent never changes: every drop
 * below comes from the judge, so a comparison must say `judge changed`, never `regressed`.
 * Without judge fingerprints each of these drops (3/3 → 0/3, verdict passed → scored) is a counted
 * regression, exit 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeOpenAI({
    script: (body: { model: string; messages: unknown }) => {
      const low = body.model === 'gpt-4.1-nano' || JSON.stringify(body.messages).includes('EDITED');
      return { json: { score: low ? 0 : 1, reason: low ? 'not convinced' : 'names the capital', evidence: [] } };
    },
  });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const CONFIG = `export default {
  targets: { capital: () => 'Paris is the capital of France.' },
  judge: 'openai:gpt-4.1-mini',
  concurrency: 1,
};
`;
const YAML = (criteria: string) => `suite: geo
target: capital
repeat: 3
cases:
  - id: polite
    input: What is the capital of France?
    assert:
      - { type: contains, value: Paris }
      - { type: judge, criteria: "${criteria}" }
`;
const TS = (criteria: string, input = 'Capital of France?') => `export default {
  suite: 'ts',
  target: 'capital',
  repeat: 3,
  cases: [
    {
      id: 'capital',
      input: ${JSON.stringify(input)},
      check: (t) => {
        t.contains('Paris');
        t.judge().criteria(${JSON.stringify(criteria)}).label('names it');
      },
    },
  ],
};
`;

/** A TS case whose rubric is a module constant: not the check's source, so editing it edits no case. */
const TS_CONST = (criteria: string) => `const RUBRIC = ${JSON.stringify(criteria)};
export default {
  suite: 'tsconst',
  target: 'capital',
  repeat: 3,
  cases: [{ id: 'capital', input: 'Capital of France?', check: (t) => void t.judge().criteria(RUBRIC) }],
};
`;

const env = () => ({ OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url });
const run = (dir: string, args: string[]) => runCliInProcess(['run', '--no-early-stop', '--no-cache', ...args], { cwd: dir, env: env() });

async function saveBaseline(dir: string): Promise<void> {
  const r = await run(dir, ['--save-baseline', '--json', 'base.json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

describe('a baseline judged by another judge', () => {
  it('run --judge with another model: the case is judge changed, exit 0, one case touched; compare agrees', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/geo.eval.yaml': YAML('Names the capital') });
    await saveBaseline(dir);
    const base = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')));
    expect(base.cases[0]!.judgeFingerprint!.assertions[0]!.judge).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini' });

    const head = await run(dir, ['--baseline', 'main', '--judge', 'openai:gpt-4.1-nano', '--json', 'head.json']);
    const out = stripAnsi(head.stdout);
    expect(head.code, out + head.stderr).toBe(0);
    expect(out).toMatch(/judge changed\s+geo\/polite\s+3\/3 → 0\/3 \(judge openai:gpt-4\.1-mini → openai:gpt-4\.1-nano\)/);
    expect(out).toMatch(/0 regressed \(0 counted, max 0\), 0 improved, 0 unchanged, 1 judge changed/);
    expect(out).toContain('1 case touched by a judge change: not compared');
    expect(out).not.toMatch(/regressed\s+geo\/polite/);

    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')));
    expect(results.comparison).toMatchObject({ failed: false, counted: 0, counts: { 'judge-changed': 1, regressed: 0 } });
    expect(results.comparison!.cases).toEqual([
      expect.objectContaining({
        key: 'geo/polite',
        kind: 'judge-changed',
        judgeChanges: ['judge openai:gpt-4.1-mini → openai:gpt-4.1-nano'],
        base: expect.objectContaining({ passed: 3 }),
        head: expect.objectContaining({ passed: 0 }),
      }),
    ]);
    // The case is the same case: only the judge moved.
    expect(results.cases[0]!.fingerprint).toBe(base.cases[0]!.fingerprint);

    // `compare`'s exit code for the same pair of files.
    const compared = await runCliInProcess(['compare', 'base.json', 'head.json'], { cwd: dir, env: env() });
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    expect(stripAnsi(compared.stdout)).toMatch(/judge changed\s+geo\/polite/);
  });

  it("criteria edited in a YAML assertion or in a constant a TS check reads: judge changed; edited in the check's source, the case reads changed", async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'evals/geo.eval.yaml': YAML('Names the capital'),
      'evals/capital.eval.ts': TS('Names the capital; nothing else'),
      'evals/const.eval.ts': TS_CONST('Names the capital'),
    });
    await saveBaseline(dir);
    const base = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')));

    writeFileSync(join(dir, 'evals/geo.eval.yaml'), YAML('Names the capital, EDITED'));
    writeFileSync(join(dir, 'evals/capital.eval.ts'), TS('Names the capital (EDITED); nothing else'));
    writeFileSync(join(dir, 'evals/const.eval.ts'), TS_CONST('Names the capital, EDITED'));
    const edited = await run(dir, ['--baseline', 'main', '--json', 'head.json']);
    const out = stripAnsi(edited.stdout);
    expect(edited.code, out + edited.stderr).toBe(0);
    expect(out).toMatch(/judge changed\s+geo\/polite\s+3\/3 → 0\/3 \(criteria edited\)/);
    expect(out).toMatch(/judge changed\s+tsconst\/capital\s+3\/3 → 0\/3 \(criteria edited\)/);
    // The check's source is the case as written: an edit in it is an edit of the case, whatever it touches.
    expect(out).toMatch(/^\s*changed\s+ts\/capital\s+3\/3 → 0\/3 \(input, reference, assertions or check edited\)/m);
    expect(out).toContain('2 cases touched by a judge change');
    expect(out).not.toMatch(/regressed\s+(geo|ts|tsconst)\//);

    // What the check's judge was asked is recorded at run time: its judge fingerprint moved with the rubric.
    const head = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')));
    const byKey = (r: typeof base, suite: string) => r.cases.find((c) => c.suite === suite)!;
    for (const suite of ['ts', 'tsconst']) {
      const [b, h] = [byKey(base, suite), byKey(head, suite)];
      expect(h.judgeFingerprint!.hash, suite).not.toBe(b.judgeFingerprint!.hash);
      expect(h.judgeFingerprint!.assertions[0]!.judge.criterion.criteria, suite).not.toEqual(b.judgeFingerprint!.assertions[0]!.judge.criterion.criteria);
    }
    expect(byKey(head, 'ts').fingerprint).not.toBe(byKey(base, 'ts').fingerprint);
    expect(byKey(head, 'tsconst').fingerprint).toBe(byKey(base, 'tsconst').fingerprint);
  });
});
