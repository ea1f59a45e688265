/**
 * The on-disk cache of parsed and validated YAML eval files (src/suite/parse-cache.ts): a warm load
 * serves the stored result without parsing or checking the file (and a fresh process loads no YAML
 * parser); an edit, even one that keeps the size and the time, is a new entry; a torn or unreadable
 * entry is parsed again; a file with errors is never stored and still names file, line and field.
 * Datasets too: YAML, and CSV/JSONL up to CACHED_DATASET_MAX_BYTES (a warm read loads no CSV parser).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadYamlEvalFile } from '../../src/suite/load-yaml.js';
import { CACHED_DATASET_MAX_BYTES, readDatasetFile } from '../../src/suite/dataset-read.js';
import { parsedCacheDir, parsedKey } from '../../src/suite/parse-cache.js';
import { UserErrors } from '../../src/core/errors.js';
import { CLI, REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { runWithModuleProbe } from '../support/module-probe.js';

afterAll(removeTempDirs);

/** A project with its own node_modules, so its cache is its own: `<dir>/node_modules/.cache/agent-evals/parsed`. */
function project(): { dir: string; cache: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  return { dir, cache: join(dir, 'node_modules', '.cache', 'agent-evals', 'parsed') };
}

const EVAL = [
  'suite: s', // 1
  'target: agent', // 2
  'cases:', // 3
  '  - id: first', // 4
  '    input: aaa', // 5
  '    metadata: { n: 1, nested: [x, { y: null }] }', // 6
  '    assert: [{ type: contains, value: a }]', // 7
  '  - id: second', // 8
  '    turns:', // 9
  '      - input: hi', // 10
  '        assert: [{ type: isJson }]', // 11
  '',
].join('\n');

const entries = (cache: string): string[] => {
  try {
    return readdirSync(cache);
  } catch {
    return [];
  }
};

describe('loadYamlEvalFile through the parse cache', () => {
  it('stores a valid file under the project node_modules and serves it from there, as the cold load gave it, without parsing or checking it', async () => {
    const { dir, cache } = project();
    const file = join(dir, 'a.eval.yaml');
    writeFileSync(file, EVAL);
    expect(parsedCacheDir(file)).toBe(cache);
    const cold = await loadYamlEvalFile(file, 'a.eval.yaml');
    const key = parsedKey(file, readFileSync(file), 'eval');
    // Written whole: the entry alone, no temporary file left beside it.
    expect(entries(cache)).toEqual([`${key}.json`]);
    const warm = await loadYamlEvalFile(file, 'shown/a.eval.yaml');
    expect(warm).toEqual({ ...cold, file: 'shown/a.eval.yaml' });
    expect(warm.caseLines).toEqual([4, 8]);
    expect(warm.targetLine).toBe(2);

    // Served, neither parsed nor checked: an entry changed to hold a case id the schema refuses (no
    // spaces), its stamp intact, is what a warm load returns.
    const entry = join(cache, `${key}.json`);
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('"first"', '"not an id"'));
    expect((await loadYamlEvalFile(file)).data.cases?.[0]?.id).toBe('not an id');
  });

  it('an edit that keeps the size and the modification time is a new entry: never the stale result', async () => {
    const { dir, cache } = project();
    const file = join(dir, 'a.eval.yaml');
    writeFileSync(file, EVAL);
    const before = statSync(file);
    expect((await loadYamlEvalFile(file)).data.cases?.[0]?.input).toBe('aaa');
    writeFileSync(file, EVAL.replace('input: aaa', 'input: bbb'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    expect((await loadYamlEvalFile(file)).data.cases?.[0]?.input).toBe('bbb');
    expect(entries(cache)).toHaveLength(2);
  });

  it('a torn entry (no closing stamp), one that is not JSON, or one that cannot be read is parsed again', async () => {
    const { dir, cache } = project();
    const file = join(dir, 'a.eval.yaml');
    writeFileSync(file, EVAL);
    const cold = await loadYamlEvalFile(file);
    const entry = join(cache, `${parsedKey(file, readFileSync(file), 'eval')}.json`);
    const whole = readFileSync(entry, 'utf8');
    writeFileSync(entry, whole.slice(0, whole.length - 20));
    expect(await loadYamlEvalFile(file)).toEqual(cold);
    expect(readFileSync(entry, 'utf8')).toBe(whole);
    // Stamped but not JSON (a foreign writer): parsed again.
    const stampAt = whole.lastIndexOf('\n//# ');
    writeFileSync(entry, `{"data": ${whole.slice(stampAt)}`);
    expect(await loadYamlEvalFile(file)).toEqual(cold);
    // A directory where another file's entry should be: unreadable and not replaceable; the load still works.
    const other = join(dir, 'b.eval.yaml');
    writeFileSync(other, EVAL.replace('suite: s', 'suite: b'));
    mkdirSync(join(cache, `${parsedKey(other, readFileSync(other), 'eval')}.json`));
    expect((await loadYamlEvalFile(other)).data.suite).toBe('b');
    expect((await loadYamlEvalFile(other)).data.suite).toBe('b');
    expect(entries(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a file with errors is never stored, and every load still names its file, line and field', async () => {
    const { dir, cache } = project();
    const file = join(dir, 'bad.eval.yaml');
    writeFileSync(file, EVAL.replace('type: isJson', 'type: nope'));
    for (let i = 0; i < 2; i++) {
      const err = await loadYamlEvalFile(file, 'bad.eval.yaml').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserErrors);
      const [first] = (err as UserErrors).errors;
      expect(first).toMatchObject({ file: 'bad.eval.yaml', line: 11, field: 'cases[1].turns[0].assert[0].type' });
      expect(entries(cache)).toEqual([]);
    }
    // A syntax error too.
    writeFileSync(file, EVAL.replace('input: aaa', 'input: [aaa'));
    await expect(loadYamlEvalFile(file, 'bad.eval.yaml')).rejects.toBeInstanceOf(UserErrors);
    expect(entries(cache)).toEqual([]);
  });

  it('what the run config decides (user assertions) or JSON cannot hold exactly (.nan, .inf) is not stored', async () => {
    const { dir, cache } = project();
    const user = join(dir, 'user.eval.yaml');
    writeFileSync(user, EVAL.replace('type: isJson', 'type: userAssertion, name: wordCount, options: { max: 3 }'));
    expect((await loadYamlEvalFile(user)).data.cases?.[1]?.turns?.[0]?.assert?.[0]).toMatchObject({ type: 'userAssertion', name: 'wordCount' });
    const nan = join(dir, 'nan.eval.yaml');
    writeFileSync(nan, EVAL.replace('n: 1', 'n: .nan, m: -.inf'));
    expect((await loadYamlEvalFile(nan)).data.cases?.[0]?.metadata).toMatchObject({ n: NaN, m: -Infinity });
    expect(entries(cache)).toEqual([]);
  });
});

describe('YAML datasets through the parse cache', () => {
  const rowsOf = async (path: string) => {
    const out = [];
    for await (const r of readDatasetFile(path, 'rows.yaml', 'rows.yaml')) out.push(r);
    return out;
  };

  it('a warm read serves the stored rows with their lines; an edit is read anew; a file that is not a list is not stored', async () => {
    const { dir, cache } = project();
    const path = join(dir, 'rows.yaml');
    writeFileSync(path, '- input: one\n  id: a\n- input: two\n  id: b\n');
    const cold = await rowsOf(path);
    expect(cold).toEqual([
      { value: { input: 'one', id: 'a' }, row: 1, line: 1 },
      { value: { input: 'two', id: 'b' }, row: 2, line: 3 },
    ]);
    const entry = join(cache, `${parsedKey(path, readFileSync(path), 'dataset')}.json`);
    expect(entries(cache)).toEqual([entry.slice(cache.length + 1)]);
    expect(await rowsOf(path)).toEqual(cold);
    // Served, not parsed again: a changed entry (stamp intact) is what a warm read returns.
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('"two"', '"from-the-cache"'));
    expect((await rowsOf(path))[1]?.value.input).toBe('from-the-cache');
    writeFileSync(path, '- input: one\n  id: a\n- input: 2wo\n  id: b\n');
    expect((await rowsOf(path))[1]?.value.input).toBe('2wo');
    writeFileSync(path, 'input: one\n');
    await expect(rowsOf(path)).rejects.toThrow(/a YAML dataset is a list of rows/);
    expect(entries(cache)).toHaveLength(2);
  });
});

describe('JSONL and CSV datasets through the parse cache', () => {
  const rowsOf = async (path: string, shown = path) => {
    const out = [];
    for await (const r of readDatasetFile(path, shown, shown)) out.push(r);
    return out;
  };
  // A byte-order mark, a quoted cell over two lines, a blank line, an empty cell (and CRLF ends in the JSONL): the lines must survive the cache.
  const CSV = '\uFEFFid,input,reference\na,"one\nline two",x\n\nb,two,\nc,three,zzz\n';
  const JSONL = '\uFEFF{"id": "a", "input": "one"}\n\n{"id": "b", "input": "two", "n": [1, {"x": null}]}\r\n{"id": "c", "__proto__": "own"}\n';

  it('a warm read serves the rows and lines the cold read gave, from the stored entry, for CSV and JSONL', async () => {
    const { dir, cache } = project();
    const csv = join(dir, 'rows.csv');
    const jsonl = join(dir, 'rows.jsonl');
    writeFileSync(csv, CSV);
    writeFileSync(jsonl, JSONL);
    const coldCsv = await rowsOf(csv);
    expect(coldCsv).toEqual([
      { value: { id: 'a', input: 'one\nline two', reference: 'x' }, row: 1, line: 2 },
      { value: { id: 'b', input: 'two' }, row: 2, line: 5 },
      { value: { id: 'c', input: 'three', reference: 'zzz' }, row: 3, line: 6 },
    ]);
    const coldJsonl = await rowsOf(jsonl);
    expect(coldJsonl.map((r) => [r.row, r.line])).toEqual([
      [1, 1],
      [2, 3],
      [3, 4],
    ]);
    expect(Object.hasOwn(coldJsonl[2]!.value, '__proto__')).toBe(true);
    const csvEntry = join(cache, `${parsedKey(csv, readFileSync(csv), 'dataset')}.json`);
    const jsonlEntry = join(cache, `${parsedKey(jsonl, readFileSync(jsonl), 'dataset')}.json`);
    expect(entries(cache).sort()).toEqual([csvEntry, jsonlEntry].map((e) => e.slice(cache.length + 1)).sort());
    const warmJsonl = await rowsOf(jsonl);
    expect(warmJsonl).toEqual(coldJsonl);
    expect(Object.hasOwn(warmJsonl[2]!.value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(warmJsonl[2]!.value)).toBe(Object.prototype);
    expect(await rowsOf(csv)).toEqual(coldCsv);
    // Served, not parsed again: a changed entry (stamp intact) is what a warm read returns.
    writeFileSync(csvEntry, readFileSync(csvEntry, 'utf8').replace('"three"', '"from-the-cache"'));
    expect((await rowsOf(csv))[2]?.value.input).toBe('from-the-cache');
    writeFileSync(jsonlEntry, readFileSync(jsonlEntry, 'utf8').replace('"two"', '"from-the-cache"'));
    expect((await rowsOf(jsonl))[1]?.value.input).toBe('from-the-cache');
  });

  it('an edit that keeps the size and the modification time is read anew: never the stale rows', async () => {
    const { dir, cache } = project();
    for (const [name, text, from, to] of [
      ['rows.csv', CSV, 'three', 'thr3e'],
      ['rows.jsonl', JSONL, '"two"', '"2wo"'],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const before = statSync(path);
      expect((await rowsOf(path)).map((r) => r.value.input)).toContain(from.replaceAll('"', ''));
      writeFileSync(path, text.replace(from, to));
      utimesSync(path, before.atime, before.mtime);
      expect(statSync(path).size).toBe(before.size);
      const again = (await rowsOf(path)).map((r) => r.value.input);
      expect(again).toContain(to.replaceAll('"', ''));
      expect(again).not.toContain(from.replaceAll('"', ''));
    }
    expect(entries(cache)).toHaveLength(4);
  });

  it('a file with errors is never stored, and every read names its file and line; nor is a read its consumer stops early', async () => {
    const { dir, cache } = project();
    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, 'id,input\na,one\nb,two,extra\n');
    const jsonl = join(dir, 'bad.jsonl');
    writeFileSync(jsonl, '{"id": "a", "input": "one"}\n{"id": "b",\n');
    const notObject = join(dir, 'list.jsonl');
    writeFileSync(notObject, '{"id": "a", "input": "one"}\n[1, 2]\n');
    for (let i = 0; i < 2; i++) {
      await expect(rowsOf(csv, 'bad.csv')).rejects.toMatchObject({ file: 'bad.csv', line: 3, message: expect.stringMatching(/row 2 has 3 columns, the header has 2/) });
      await expect(rowsOf(jsonl, 'bad.jsonl')).rejects.toMatchObject({ file: 'bad.jsonl', line: 2, message: expect.stringMatching(/line 2 is not JSON/) });
      await expect(rowsOf(notObject, 'list.jsonl')).rejects.toMatchObject({ file: 'list.jsonl', line: 2, message: expect.stringMatching(/row 2 is not an object/) });
      expect(entries(cache)).toEqual([]);
    }
    // A consumer that stops after the first row (a later row of its own refused): nothing is stored.
    const good = join(dir, 'good.csv');
    writeFileSync(good, 'id,input\na,one\nb,two\n');
    for await (const r of readDatasetFile(good, 'good.csv', 'good.csv')) if (r.row === 1) break;
    expect(entries(cache)).toEqual([]);
  });

  it(`a file over ${CACHED_DATASET_MAX_BYTES} bytes streams and is never stored`, async () => {
    const { dir, cache } = project();
    const path = join(dir, 'big.jsonl');
    const line = `{"input": "${'x'.repeat(1000)}"}\n`;
    writeFileSync(path, line.repeat(Math.ceil(CACHED_DATASET_MAX_BYTES / line.length) + 1));
    let rows = 0;
    for await (const r of readDatasetFile(path, 'big.jsonl', 'big.jsonl')) if (++rows === 1) expect(r).toEqual({ value: { input: 'x'.repeat(1000) }, row: 1, line: 1 });
    expect(rows).toBe(Math.ceil(CACHED_DATASET_MAX_BYTES / line.length) + 1);
    expect(entries(cache)).toEqual([]);
  });
});

describe('the built CLI (needs `npm run build`)', () => {
  it('a warm `list` loads no YAML parser and lists the same cases; an invalid file is exit 2 naming file and line on every run', () => {
    const { dir, cache } = project();
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      "export default { evals: ['*.eval.yaml'], targets: { agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:9/v1' } } } };\n",
    );
    writeFileSync(join(dir, 'a.eval.yaml'), EVAL);
    const yamlParser = (esm: string[]) => esm.filter((u) => u.includes('/node_modules/js-yaml/') || u.includes('/node_modules/yaml/'));
    const cold = runWithModuleProbe(CLI, ['list'], dir);
    expect(cold.stderr).toBe('');
    expect(cold.stdout).toContain('s/first  ×1  a.eval.yaml:4  → agent');
    // The probe is not blind: the cold run parsed the file with js-yaml.
    expect(yamlParser(cold.esm).length).toBeGreaterThan(0);
    expect(entries(cache)).toHaveLength(1);
    const warm = runWithModuleProbe(CLI, ['list'], dir);
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);
    expect(yamlParser(warm.esm)).toEqual([]);

    writeFileSync(join(dir, 'a.eval.yaml'), EVAL.replace('type: isJson', 'type: nope'));
    for (let i = 0; i < 2; i++) {
      const bad = spawnSync(process.execPath, [CLI, 'list'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('a.eval.yaml:11');
      expect(bad.stderr).toContain('cases[1].turns[0].assert[0].type');
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
    expect(entries(cache)).toHaveLength(1);
  });

  it('a warm `run` loads no YAML parser either (nor does the fake judge it uses), and passes as the cold run did', () => {
    const { dir, cache } = project();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], judge: 'fake', reporters: [], targets: { echo: { command: ['node', 'echo.mjs'] } } };\n");
    writeFileSync(
      join(dir, 'echo.mjs'),
      "let t = '';\nprocess.stdin.on('data', (c) => (t += c));\nprocess.stdin.on('end', () => process.stdout.write(JSON.stringify({ reply: JSON.parse(t).input })));\n",
    );
    writeFileSync(join(dir, 'a.eval.yaml'), 'suite: r\ntarget: echo\ncases:\n  - id: one\n    input: hello\n    assert: [{ type: contains, value: hell }]\n');
    const jsYaml = (esm: string[]) => esm.filter((u) => u.includes('/node_modules/js-yaml/'));
    const cold = runWithModuleProbe(CLI, ['run'], dir);
    expect(cold.code).toBe(0);
    expect(jsYaml(cold.esm).length).toBeGreaterThan(0);
    expect(entries(cache)).toHaveLength(1);
    const warm = runWithModuleProbe(CLI, ['run'], dir);
    expect(warm.code).toBe(0);
    expect(jsYaml([...warm.esm, ...warm.cjs])).toEqual([]);
  });

  it('a warm `list` of a suite with CSV and JSONL datasets loads no csv-parse, opens no read stream, and lists the same cases', () => {
    const { dir, cache } = project();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { agent: async (input) => `Answer: ${input}` } };\n");
    writeFileSync(join(dir, 'rows.csv'), 'id,input\nc1,"two\nlines"\nc2,hi\n');
    writeFileSync(join(dir, 'rows.jsonl'), '\n{"id": "j1", "input": "hi"}\n');
    for (const [name, ds] of [
      ['csv', 'rows.csv'],
      ['jsonl', 'rows.jsonl'],
    ])
      writeFileSync(join(dir, `${name}.eval.yaml`), `suite: ${name}\ntarget: agent\ndataset: ${ds}\nassert: [{ type: contains, value: Answer }]\n`);
    const csvParse = (r: { esm: string[]; cjs: string[] }) => [...r.esm, ...r.cjs].filter((f) => f.includes('/node_modules/csv-parse/'));
    const cold = runWithModuleProbe(CLI, ['list'], dir);
    expect(cold.stderr).toBe('');
    expect(cold.stdout).toContain('csv/c2  ×1  rows.csv:4  → agent');
    expect(cold.stdout).toContain('jsonl/j1  ×1  rows.jsonl:2  → agent');
    // The probe is not blind: the cold list parsed the CSV with csv-parse and the JSONL with readline.
    expect(csvParse(cold).length).toBeGreaterThan(0);
    expect(cold.builtins).toContain('readline');
    // Two eval files and two datasets.
    expect(entries(cache)).toHaveLength(4);
    const warm = runWithModuleProbe(CLI, ['list'], dir);
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);
    expect(csvParse(warm)).toEqual([]);
    // Nor the line reader the JSONL was parsed with (files under the cache's size limit are read whole, never through a read stream).
    expect(warm.builtins).not.toContain('readline');
  });

  it('processes writing one entry at once never leave a reader a torn entry', async () => {
    const { cache } = project();
    const module = pathToFileURL(join(REPO_ROOT, 'dist', 'suite', 'cache-files.js')).href;
    const kind = { folder: 'parsed', ext: '.json', stamp: 'parse-cache' };
    // Each writer stores its own large body 200 times under the same key.
    const writer = (fill: string) =>
      new Promise<number | null>((done) => {
        const script = `const { writeEntry } = await import(${JSON.stringify(module)});
          const body = JSON.stringify({ fill: ${JSON.stringify(fill)}.repeat(200000) });
          for (let i = 0; i < 200; i++) writeEntry(${JSON.stringify(kind)}, ${JSON.stringify(cache)}, 'k', body);`;
        spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } }).on('exit', done);
      });
    const { readEntry } = (await import(module)) as typeof import('../../src/suite/cache-files.js');
    const whole = new Set(['a'.repeat(200000), 'b'.repeat(200000)]);
    const bad: string[] = [];
    let running = true;
    const both = Promise.all([writer('a'), writer('b')]).finally(() => (running = false));
    while (running) {
      const text = readEntry(kind, cache, 'k');
      // Every read is nothing yet or one writer's whole body: never a mix of two, never a cut.
      if (text !== undefined && !whole.has((JSON.parse(text) as { fill: string }).fill)) bad.push(text.slice(0, 40));
      await new Promise((r) => setImmediate(r));
    }
    expect(await both).toEqual([0, 0]);
    expect(bad).toEqual([]);
    expect(whole.has((JSON.parse(readEntry(kind, cache, 'k')!) as { fill: string }).fill)).toBe(true);
    expect(readdirSync(cache)).toEqual(['k.json']);
  });
});
