/**
 * Datasets: rows of a JSONL / CSV / JSON / YAML file (or rows given in code) become cases with a
 * stable identity, the suite's assertions applied to each with the row's `{{variables}}`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';
import { runInProcess } from '../support/run-in-process.js';
import { loadCases, type PlanDefaults, type PlannedCase } from '../../src/suite/plan.js';
import { UserError } from '../../src/core/errors.js';

afterAll(removeTempDirs);

const defaults: PlanDefaults = { repeat: 1, passRate: 1, timeoutMs: 1000, targets: ['agent'], judgeDefaults: { severity: 'gate', threshold: 0.5 } };

const suite = (dataset: string, extra = '') => ['suite: ds', 'target: agent', `dataset: ${dataset}`, 'assert:', '  - { type: contains, value: "{{want}}" }', extra].join('\n') + '\n';

const rows = [
  { input: 'alpha question', reference: 'a ref', want: 'ALPHA' },
  { input: 'beta question', want: 'nope' },
  { input: 'gamma, with a comma', reference: 'g "quoted" ref', want: 'GAMMA' },
  { input: 'delta question', want: 'DELTA' },
];
const jsonl = (rs: object[]) => rs.map((r) => JSON.stringify(r)).join('\n') + '\n';
const csvCell = (v: string | undefined) => (v === undefined ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rs: Array<Record<string, string | undefined>>) => ['input,reference,want', ...rs.map((r) => [r.input, r.reference, r.want].map(csvCell).join(','))].join('\n') + '\n';

async function load(files: Record<string, string>, pick: PlanDefaults['pick'] = {}): Promise<PlannedCase[]> {
  const dir = writeProject(files);
  const evalFiles = Object.keys(files)
    .filter((f) => /\.eval\.(ya?ml|ts)$/.test(f))
    .map((f) => join(dir, f));
  return loadCases(evalFiles, dir, { ...defaults, pick });
}

async function loadError(files: Record<string, string>, pick: PlanDefaults['pick'] = {}): Promise<UserError> {
  const err = await load(files, pick).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('dataset identity', () => {
  it('a JSONL and a CSV dataset with the same rows give the same case ids and verdicts', async () => {
    const files = { 'data.jsonl': jsonl(rows), 'data.csv': csv(rows), 'j.eval.yaml': suite('data.jsonl').replace('ds', 'ds-jsonl'), 'c.eval.yaml': suite('data.csv').replace('ds', 'ds-csv') };
    // The target shouts the input back: rows whose `want` is its first word pass.
    const { results } = await runInProcess({ files, config: { targets: { agent: async (input: string) => input.toUpperCase() } } });
    const bySuite = (s: string) => results.cases.filter((c) => c.suite === s).map((c) => [c.id, c.verdict, c.trials[0]!.assertions[0]!.message ?? '']);
    const fromJsonl = bySuite('ds-jsonl');
    expect(fromJsonl).toHaveLength(4);
    expect(fromJsonl.map(([, v]) => v)).toEqual(['passed', 'failed', 'passed', 'passed']);
    expect(bySuite('ds-csv')).toEqual(fromJsonl);
    // Ids are short hashes, distinct per row.
    expect(new Set(fromJsonl.map(([id]) => id)).size).toBe(4);
    for (const [id] of fromJsonl) expect(id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('reordering rows keeps every id; editing one input changes only that id', async () => {
    const ids = async (rs: object[]) => (await load({ 'd.jsonl': jsonl(rs), 's.eval.yaml': suite('d.jsonl') })).map((c) => [c.input, c.id] as const);
    const original = new Map(await ids(rows));
    const reordered = new Map(await ids([...rows].reverse()));
    expect(reordered).toEqual(original);
    const edited = await ids(rows.map((r, i) => (i === 2 ? { ...r, input: 'gamma, edited' } : r)));
    const changed = edited.filter(([input, id]) => original.get(input) !== id);
    expect(changed.map(([input]) => input)).toEqual(['gamma, edited']);
    expect(edited.map(([, id]) => id).filter((id) => [...original.values()].includes(id))).toHaveLength(3);
  });

  it('a row id, or the idColumn, is the case id; row fields fill {{variables}} in assertions and judge criteria', async () => {
    const cases = await load({
      'd.csv': 'key,question,want,expected,tags\nk1,Hi there,there,Hello,"a, b"\nk2,Bye now,now,,\n',
      's.eval.yaml': [
        'suite: ds',
        'target: agent',
        'tags: [suite-tag]',
        'dataset: { path: d.csv, inputColumn: question, idColumn: key }',
        'assert:',
        '  - { type: contains, value: "{{want}}" }',
        '  - { type: judge, criteria: "Says {{want}} to the question {{question}}" }',
      ].join('\n'),
    });
    expect(cases.map((c) => [c.key, c.input, c.reference, c.tags])).toEqual([
      ['ds/k1', 'Hi there', 'Hello', ['suite-tag', 'a', 'b']],
      ['ds/k2', 'Bye now', undefined, ['suite-tag']],
    ]);
    expect(cases[1]!.assertions).toEqual([
      { type: 'contains', value: 'now' },
      { type: 'judge', criteria: 'Says now to the question Bye now' },
    ]);
    expect(cases[0]!.file).toBe('d.csv');
    expect(cases[1]!.line).toBe(3);
  });

  it('CSV rows keep their lines when a quoted cell spans lines in a CRLF file (csv-parse counts such a CRLF twice)', async () => {
    const text = ['input,reference,want', '"one', 'two",r,x', 'three,r,x', '', '"four', 'five', 'six",r,x', 'seven,r,x', ''].join('\r\n');
    const cases = await load({ 'd.csv': text, 's.eval.yaml': suite('d.csv') });
    expect(cases.map((c) => [c.input, c.line])).toEqual([
      ['one\r\ntwo', 2],
      ['three', 4],
      ['four\r\nfive\r\nsix', 6],
      ['seven', 9],
    ]);
  });

  it('rows without variables share the suite assertion list; JSON and YAML datasets load too', async () => {
    const plain = 'suite: ds\ntarget: agent\ndataset: d.json\nassert:\n  - { type: contains, value: x }\n';
    const cases = await load({ 'd.json': JSON.stringify([{ input: 'a' }, { input: 'b', id: 7 }]), 's.eval.yaml': plain });
    expect(cases.map((c) => c.id)).toEqual([expect.stringMatching(/^[0-9a-f]{12}$/), '7']);
    expect(cases[0]!.assertions).toBe(cases[1]!.assertions);
    const fromYaml = await load({ 'd.yaml': '- input: a\n- input: b\n  id: "7"\n', 's.eval.yaml': plain.replace('d.json', 'd.yaml') });
    expect(fromYaml.map((c) => [c.id, c.line])).toEqual([
      [cases[0]!.id, 1],
      ['7', 2],
    ]);
  });
});

describe('dataset selection', () => {
  const many = Array.from({ length: 50 }, (_, i) => ({ input: `question ${i}`, want: 'x' }));

  it('--sample 5 --seed 1 picks the same five rows twice, whatever the row order; another seed picks others', async () => {
    const files = (rs: object[]) => ({ 'd.jsonl': jsonl(rs), 's.eval.yaml': suite('d.jsonl') });
    const pick = async (rs: object[], seed: number) => (await load(files(rs), { sample: 5, seed })).map((c) => c.input).sort();
    const first = await pick(many, 1);
    expect(first).toHaveLength(5);
    expect(await pick(many, 1)).toEqual(first);
    expect(await pick([...many].reverse(), 1)).toEqual(first);
    expect(await pick(many, 2)).not.toEqual(first);
    // Kept in file order.
    const ordered = (await load(files(many), { sample: 5, seed: 1 })).map((c) => c.line!);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
  });

  it('--limit N keeps the first N rows of each dataset, and hand-written cases', async () => {
    const cases = await load(
      {
        'd.jsonl': jsonl(many),
        's.eval.yaml': suite('d.jsonl') + 'cases:\n  - id: by-hand\n    input: hi\n    assert: [{ type: contains, value: hi }]\n',
      },
      { limit: 3 },
    );
    expect(cases.map((c) => c.input)).toEqual(['hi', 'question 0', 'question 1', 'question 2']);
  });
});

describe('bad data', () => {
  it('a malformed JSONL line names its line', async () => {
    const lines = jsonl(rows).split('\n');
    lines.splice(4, 0, '', '{"input": "broken",');
    const err = await loadError({ 'd.jsonl': lines.join('\n'), 's.eval.yaml': suite('d.jsonl') });
    expect(err.message).toMatch(/^d\.jsonl:6: line 6 is not JSON/);
  });

  it('a CSV row with too few columns names its row and line', async () => {
    const err = await loadError({ 'd.csv': 'input,reference,want\na,b,c\nd,e,f\ng,h,i\nj,k\nl,m,n\n', 's.eval.yaml': suite('d.csv') });
    expect(err.message).toMatch(/^d\.csv:5: row 4 has 2 columns, the header has 3/);
  });

  it('a {{missing}} variable names the row and field', async () => {
    const err = await loadError({ 'd.jsonl': jsonl([{ input: 'a', want: 'x' }, { input: 'b' }]), 's.eval.yaml': suite('d.jsonl') });
    expect(err.message).toBe('d.jsonl:2: want: row 2: {{want}} in assert[0].value is not a field of this row');
  });

  it('duplicate ids name both rows; identical rows without ids too', async () => {
    const dup = await loadError({
      'd.jsonl': jsonl([
        { id: 'a', input: 'x', want: 'x' },
        { id: 'b', input: 'y', want: 'y' },
        { id: 'a', input: 'z', want: 'z' },
      ]),
      's.eval.yaml': suite('d.jsonl'),
    });
    expect(dup.message).toBe('d.jsonl:3: id: rows 1 and 3 have the same id "a"');
    const same = await loadError({ 'd.jsonl': jsonl([rows[0]!, rows[1]!, rows[0]!]), 's.eval.yaml': suite('d.jsonl') });
    expect(same.message).toMatch(/rows 1 and 3 have the same input and reference/);
  });

  it('an empty dataset, a missing file, and a row with no input are errors', async () => {
    expect((await loadError({ 'd.jsonl': '\n\n', 's.eval.yaml': suite('d.jsonl') })).message).toBe('d.jsonl: the dataset has no rows');
    const missing = await loadError({ 'evals/s.eval.yaml': suite('../data/nope.jsonl') });
    expect(missing.message).toMatch(/^data\/nope\.jsonl: dataset "\.\.\/data\/nope\.jsonl" not found \(resolved to \/.*\/data\/nope\.jsonl\)$/);
    const noInput = await loadError({ 'd.jsonl': jsonl([{ question: 'a', want: 'x' }]), 's.eval.yaml': suite('d.jsonl') });
    expect(noInput.message).toMatch(/row 1: a row needs exactly one of "input", "messages" or "turns"/);
  });

  it('an idColumn no row holds (a misspelt column) is a load error, not ids silently hashed', async () => {
    const evalFile = (idColumn: string) => `suite: ds\ntarget: agent\ndataset: { path: d.csv, inputColumn: question, idColumn: ${idColumn} }\nassert:\n  - { type: contains, value: x }\n`;
    const data = 'key,question\nk1,Hi there\nk2,Bye now\n';
    const err = await loadError({ 'd.csv': data, 's.eval.yaml': evalFile('kee') });
    expect(err.message).toBe('d.csv:2: kee: no row has a "kee" field (the idColumn); the first row\'s fields are "key", "question"');
    // A row without the named column keeps a hashed id, as rows without `id` do.
    const mixed = await load({ 'd.csv': 'key,question\nk1,Hi there\n,Bye now\n', 's.eval.yaml': evalFile('key') });
    expect(mixed.map((c) => c.id)).toEqual(['k1', expect.stringMatching(/^[0-9a-f]{12}$/)]);
  });

  it("an unknown target of a dataset suite names the eval file's target line, not a line of the dataset", async () => {
    const err = await loadError({ 'data/d.jsonl': jsonl(rows), 'evals/s.eval.yaml': suite('../data/d.jsonl').replace('target: agent', 'target: agnet') });
    expect(err.message).toBe('evals/s.eval.yaml:2: target: unknown target "agnet" (configured: agent)');
  });

  it('a dataset suite without assert is a load error', async () => {
    const err = await loadError({ 'd.jsonl': jsonl(rows), 's.eval.yaml': 'suite: ds\ntarget: agent\ndataset: d.jsonl\n' });
    expect(err.message).toMatch(/a dataset suite needs "assert"/);
  });
});

describe('TypeScript datasets', () => {
  it('takes rows as an array or an async iterable, and a file may export several suites', async () => {
    const dir = writeProject({ 'd.jsonl': jsonl(rows.slice(0, 2)) });
    writeFileSync(
      join(dir, 'rows.eval.ts'),
      `async function* gen() { yield { input: 'from a generator', id: 'g1' }; }
export default [
  { suite: 'arr', target: 'agent', dataset: [{ input: 'one', want: 'one' }, { input: 'two', want: 'two' }], assert: [{ type: 'contains', value: '{{want}}' }] },
  { suite: 'gen', target: 'agent', dataset: gen(), check: (t) => t.expect(t.reply).toContain('x') },
  { suite: 'file', target: 'agent', dataset: 'd.jsonl', assert: [{ type: 'contains', value: '{{want}}' }] },
];
`,
    );
    const cases = await loadCases([join(dir, 'rows.eval.ts')], dir, defaults);
    expect(cases.map((c) => [c.suite, c.input])).toEqual([
      ['arr', 'one'],
      ['arr', 'two'],
      ['gen', 'from a generator'],
      ['file', rows[0]!.input],
      ['file', rows[1]!.input],
    ]);
    expect(cases[1]!.assertions).toEqual([{ type: 'contains', value: 'two' }]);
    expect(typeof cases[2]!.check).toBe('function');
    expect(cases[2]!.key).toBe('gen/g1');
  });
});
