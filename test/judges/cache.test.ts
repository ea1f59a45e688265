/** Unit tests of src/judges/cache.ts: in-run sharing, failures not shared, the disk store and its bound. */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { JudgeCache, judgeCacheKey, type CachedAnswer } from '../../src/judges/cache.js';
import { SecretRedactor } from '../../src/providers/secret-redactor.js';

const answer = (text: string): CachedAnswer => ({ text, tokens: { inputTokens: 100, outputTokens: 10 }, model: 'gpt-4.1-mini' });
const keyOf = (n: number) => judgeCacheKey({ spec: 'openai:gpt-4.1-mini', system: 's', user: `u${n}`, schema: {}, options: {} });
const tmp = () => mkdtempSync(join(tmpdir(), 'agent-evals-cache-'));

function segmentsIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
}

describe('judgeCacheKey', () => {
  it('changes with every part: provider/model, prompt, schema, options', () => {
    const base = { spec: 'openai:gpt-4.1-mini', system: 's', user: 'u', schema: { a: 1 }, options: { temperature: 0 } };
    const k = judgeCacheKey(base);
    expect(judgeCacheKey({ ...base })).toBe(k);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [{ spec: 'openai:gpt-4.1' }, { system: 's2' }, { user: 'u2' }, { schema: { a: 2 } }, { options: { temperature: 0.5 } }]) {
      expect(judgeCacheKey({ ...base, ...change })).not.toBe(k);
    }
  });
});

describe('JudgeCache in a run', () => {
  it('concurrent identical requests share one call; only the caller that made it is not "cached"', async () => {
    const cache = new JudgeCache(undefined);
    let calls = 0;
    const call = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 20));
      return answer('A');
    };
    const got = await Promise.all([cache.getOrCall('k', call), cache.getOrCall('k', call), cache.getOrCall('k', call)]);
    expect(calls).toBe(1);
    expect(got.map((g) => g.text)).toEqual(['A', 'A', 'A']);
    expect(got.map((g) => g.cached)).toEqual([false, true, true]);
    // Later identical requests in the same run are shared too.
    expect(await cache.getOrCall('k', call)).toMatchObject({ text: 'A', cached: true });
    expect(calls).toBe(1);
    // A different key makes its own call.
    await cache.getOrCall('other', call);
    expect(calls).toBe(2);
  });

  it('a failed call is not shared: the next identical request tries again', async () => {
    const cache = new JudgeCache(undefined);
    let calls = 0;
    await expect(
      cache.getOrCall('k', async () => {
        calls += 1;
        throw new Error('HTTP 500');
      }),
    ).rejects.toThrow('HTTP 500');
    const again = await cache.getOrCall('k', async () => {
      calls += 1;
      return answer('B');
    });
    expect(calls).toBe(2);
    expect(again).toMatchObject({ text: 'B', cached: false });
  });
});

describe('JudgeCache on disk', () => {
  it('a stored answer is read by a later run (a new cache over the same directory) without a call', async () => {
    const dir = tmp();
    const first = new JudgeCache(dir);
    const got = await first.getOrCall(keyOf(1), async () => answer('stored'));
    expect(got.cached).toBe(false);
    await first.store(keyOf(1), got);
    await first.close();

    const second = new JudgeCache(dir);
    let calls = 0;
    const hit = await second.getOrCall(keyOf(1), async () => {
      calls += 1;
      return answer('fresh');
    });
    expect(calls).toBe(0);
    expect(hit).toMatchObject({ text: 'stored', cached: true, tokens: { inputTokens: 100, outputTokens: 10 } });
  });

  it('nothing is written until store(): an answer that was never validated is not reused by a later run', async () => {
    const dir = tmp();
    await new JudgeCache(dir).getOrCall(keyOf(2), async () => answer('unvalidated'));
    let calls = 0;
    await new JudgeCache(dir).getOrCall(keyOf(2), async () => {
      calls += 1;
      return answer('fresh');
    });
    expect(calls).toBe(1);
  });

  it('without a directory nothing is kept across cache instances', async () => {
    const c1 = new JudgeCache(undefined);
    await c1.store(keyOf(3), answer('x'));
    let calls = 0;
    await new JudgeCache(undefined).getOrCall(keyOf(3), async () => {
      calls += 1;
      return answer('y');
    });
    expect(calls).toBe(1);
  });

  it('a corrupt entry on disk is ignored (a fresh call is made)', async () => {
    const dir = tmp();
    const c = new JudgeCache(dir);
    await c.store(keyOf(4), answer('ok'));
    await c.close();
    const { writeFileSync } = await import('node:fs');
    const [segment] = segmentsIn(dir);
    // A torn last line, as a crash mid-write would leave it.
    writeFileSync(join(dir, segment!), `{"key":"${keyOf(4)}","answer":{"te`);
    let calls = 0;
    await new JudgeCache(dir).getOrCall(keyOf(4), async () => {
      calls += 1;
      return answer('fresh');
    });
    expect(calls).toBe(1);
  });

  it('one run writes one segment file, however many answers it stores', async () => {
    const dir = tmp();
    const cache = new JudgeCache(dir, 10);
    for (let i = 0; i < 10; i++) await cache.store(keyOf(i), answer(`a${i}`));
    await cache.close();
    expect(segmentsIn(dir)).toHaveLength(1);
    const later = new JudgeCache(dir, 10);
    for (let i = 0; i < 10; i++) expect(await later.getOrCall(keyOf(i), async () => answer('call'))).toMatchObject({ text: `a${i}`, cached: true });
  });

  it('past maxEntries the oldest runs are pruned, so the directory stays bounded', async () => {
    const dir = tmp();
    // Three runs of four answers each, with a bound of 10: the oldest run's segment goes.
    for (let run = 0; run < 3; run++) {
      const cache = new JudgeCache(dir, 10);
      for (let i = 0; i < 4; i++) await cache.store(keyOf(run * 4 + i), answer(`a${run * 4 + i}`));
      await cache.close();
      await new Promise((r) => setTimeout(r, 5)); // segment names order by creation time
    }
    expect(segmentsIn(dir)).toHaveLength(2);
    let calls = 0;
    const fresh = new JudgeCache(dir, 10);
    await fresh.getOrCall(keyOf(0), async () => (calls++, answer('again')));
    expect(calls).toBe(1);
    expect(await fresh.getOrCall(keyOf(11), async () => (calls++, answer('again')))).toMatchObject({ text: 'a11', cached: true });
    expect(calls).toBe(1);
  });
});

describe('JudgeCache on disk', () => {
  it("never writes the run's secret values, even when a judge quotes one", async () => {
    const dir = tmp();
    const secret = 'quoted-secret-value-42';
    const cache = new JudgeCache(dir, 100, new SecretRedactor([secret]));
    await cache.store(keyOf(1), answer(`{"reason":"the reply leaks ${secret}"}`));
    await cache.close();
    const text = segmentsIn(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    expect(text).toContain('the reply leaks [redacted]');
    expect(text).not.toContain(secret);
  });
});
