/**
 * The results keep what each case asked: a CLI run (dist's `main`, in-process) of a single input, a history
 * (`messages`), YAML `turns`, a dataset row and a TS case that sends a second turn records each
 * case's input, history or turns and its reference; a secret value from the environment in them is
 * redacted, and a text past 20,000 characters is cut with the marker, after the redaction (a key
 * across the cut is never kept in part).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { caseOf, readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

/** Long, random, shaped like no known token: only redaction by value can catch it. */
const SECRET = `tok${randomBytes(20).toString('hex')}`;
/** The key starts 20 characters before the 20,000-character cut: a cut before redaction would keep 20 of its characters. */
const BIG = `${'a'.repeat(19_980)}${SECRET}${'b'.repeat(30_000)}`;

const CONFIG = `export default {
  evals: ['evals/**/*.eval.{yaml,ts}'],
  outputDir: '.out',
  targets: { echo: async (input) => 'ok ' + input },
};
`;

const SUITE = `suite: asked
target: echo
cases:
  - id: single
    input: ${JSON.stringify(`what is ${SECRET}?`)}
    reference: ${JSON.stringify(`the answer holds ${SECRET}`)}
    assert: [{ type: contains, value: ok }]
  - id: history
    messages:
      - { role: system, content: Be brief. }
      - { role: user, content: first question }
      - { role: assistant, content: first answer }
      - { role: user, content: second question }
    reference: second answer
    assert: [{ type: contains, value: ok }]
  - id: multi
    turns:
      - { input: turn one }
      - { input: turn two, assert: [{ type: contains, value: two }] }
  - id: big
    input: ${JSON.stringify(BIG)}
    assert: [{ type: contains, value: ok }]
`;

const ROWS = `suite: rows
target: echo
dataset: rows.jsonl
assert:
  - { type: contains, value: ok }
`;

const TS = `export default {
  suite: 'ts',
  target: 'echo',
  cases: [{ id: 'sends', input: 'first message', reference: 'ts reference', check: async (t) => { await t.send('second message'); t.contains('second'); } }],
};
`;

describe('results.json keeps what each case asked', () => {
  it('holds input, history, turns and reference; redacted; cut with the marker past 20,000 characters', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'evals/asked.eval.yaml': SUITE,
      'evals/rows.eval.yaml': ROWS,
      'evals/rows.jsonl': `${JSON.stringify({ id: 'row1', input: 'row question', reference: 'row answer' })}\n`,
      'evals/ts.eval.ts': TS,
    });
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir, env: { ASKED_TEST_TOKEN: SECRET } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const res = readResults(json);

    const single = caseOf(res, 'asked/single');
    expect(single).toMatchObject({ input: 'what is [redacted]?', reference: 'the answer holds [redacted]' });
    expect(single.messages).toBeUndefined();
    expect(single.turns).toBeUndefined();
    // The target did get the secret: its absence in the results is redaction.
    expect(single.trials[0]!.reply).toBe('ok what is [redacted]?');

    const history = caseOf(res, 'asked/history');
    expect(history.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
    expect(history.reference).toBe('second answer');
    expect(history.input).toBeUndefined();

    const multi = caseOf(res, 'asked/multi');
    expect(multi.turns).toEqual([{ input: 'turn one' }, { input: 'turn two' }]);
    expect(multi.input).toBeUndefined();
    expect(multi.reference).toBeUndefined();

    // Redacted whole, then cut: the marker stands where the key started, and counts the redacted text.
    const redactedLength = 19_980 + '[redacted]'.length + 30_000;
    expect(caseOf(res, 'asked/big').input).toBe(`${'a'.repeat(19_980)}[redacted]${'b'.repeat(10)}\n…[truncated: ${redactedLength.toLocaleString('en-US')} characters, showing the first 20,000]`);

    expect(caseOf(res, 'rows/row1')).toMatchObject({ input: 'row question', reference: 'row answer' });
    // A TS case that sent a second turn keeps its input; the turns it sent are in its trial.
    const ts = caseOf(res, 'ts/sends');
    expect(ts).toMatchObject({ input: 'first message', reference: 'ts reference' });
    expect(ts.trials[0]!.turns!.map((t) => t.input)).toEqual(['first message', 'second message']);

    const text = readFileSync(json, 'utf8');
    expect(text).not.toContain(SECRET.slice(0, 12));
    expect(text).not.toContain(SECRET.slice(-12));

    // A results file written before cases kept what they asked still compares and reports.
    const old = { ...res, cases: res.cases.map(({ input: _i, messages: _m, turns: _t, reference: _r, ...c }) => c) };
    writeFileSync(join(dir, 'old.json'), JSON.stringify(old));
    const compared = await runCliInProcess(['compare', 'old.json', json], { cwd: dir });
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    const reported = await runCliInProcess(['report', 'old.json', '-o', 'old.html'], { cwd: dir });
    expect(reported.code, reported.stderr).toBe(0);
  });
});
