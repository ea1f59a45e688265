import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaseStore } from '../../src/report/case-store.js';
import type { CaseResult } from '../../src/core/results-schema.js';

const fakeCase = (id: string, pad = 0) => ({ id, reply: 'x'.repeat(pad) }) as unknown as CaseResult;

describe('CaseStore', () => {
  it('reads cases back in plan order whatever order they ended in, across batches and windows', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-evals-store-')), 'cases.jsonl');
    const store = new CaseStore(path);
    await store.open();
    // 3 ends first; 1 is larger than a write batch (forces a flush in the middle); then 0 and 2.
    await store.append(3, fakeCase('d'));
    await store.append(1, fakeCase('b', 300_000));
    await store.append(0, fakeCase('a'));
    await store.append(2, fakeCase('c'));
    const ids: string[] = [];
    for await (const text of store.casesInOrder()) ids.push((JSON.parse(text) as { id: string }).id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    await store.close();
    // Everything reached the file, one JSON line per case, in the order cases ended.
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['d', 'b', 'a', 'c']);
  });
});
