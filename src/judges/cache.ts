import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TokenUsage } from '../trace/usage.js';

/** A judge call's answer as the cache keeps it. */
export interface CachedAnswer {
  text: string;
  tokens: TokenUsage;
  model: string;
}

export interface CacheLookup extends CachedAnswer {
  /** True when this caller did not make the call itself (shared in this run, or from disk). */
  cached: boolean;
}

/** Hash of everything that decides a judge's answer: provider, model, prompt, schema, options. */
export function judgeCacheKey(parts: { spec: string; system: string; user: string; schema: unknown; options: unknown }): string {
  return createHash('sha256').update(JSON.stringify([parts.spec, parts.system, parts.user, parts.schema, parts.options])).digest('hex');
}

/**
 * Judge answers shared within a run (the same reply across repeats makes one call) and, with a
 * directory, across runs. Only answers that passed validation are written to disk. Target calls
 * never go through here: repeats must measure the agent.
 */
export class JudgeCache {
  private readonly inRun = new Map<string, Promise<CachedAnswer>>();
  private entries: number | undefined;

  constructor(private readonly dir: string | undefined, private readonly maxEntries = 50_000) {}

  async getOrCall(key: string, call: () => Promise<CachedAnswer>): Promise<CacheLookup> {
    const shared = this.inRun.get(key);
    if (shared) return { ...(await shared), cached: true };
    let mine = false;
    const pending = (async () => {
      const stored = await this.read(key);
      if (stored) return stored;
      mine = true;
      return call();
    })();
    this.inRun.set(key, pending);
    try {
      const answer = await pending;
      return { ...answer, cached: !mine };
    } catch (err) {
      // A failed call is not shared with later identical requests: they may try again.
      this.inRun.delete(key);
      throw err;
    }
  }

  /** Keep a validated answer for later runs. */
  async store(key: string, answer: CachedAnswer): Promise<void> {
    if (!this.dir) return;
    const file = this.fileOf(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    this.entries ??= await this.count();
    const isNew = !(await stat(file).then(() => true, () => false));
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(answer));
    await rename(tmp, file);
    if (isNew) this.entries += 1;
    if (this.entries > this.maxEntries) await this.prune();
  }

  private fileOf(key: string): string {
    return join(this.dir!, key.slice(0, 2), `${key}.json`);
  }

  private async read(key: string): Promise<CachedAnswer | undefined> {
    if (!this.dir) return undefined;
    try {
      const value = JSON.parse(await readFile(this.fileOf(key), 'utf8')) as CachedAnswer;
      return typeof value.text === 'string' && value.tokens ? value : undefined;
    } catch {
      return undefined;
    }
  }

  private async files(): Promise<string[]> {
    const out: string[] = [];
    for (const sub of await readdir(this.dir!).catch(() => [] as string[])) {
      for (const f of await readdir(join(this.dir!, sub)).catch(() => [] as string[])) if (f.endsWith('.json')) out.push(join(this.dir!, sub, f));
    }
    return out;
  }

  private async count(): Promise<number> {
    return (await this.files()).length;
  }

  /** Drops the oldest tenth once the bound is passed, so the cache stays bounded on disk. */
  private async prune(): Promise<void> {
    const files = await Promise.all((await this.files()).map(async (f) => ({ f, t: (await stat(f)).mtimeMs })));
    files.sort((a, b) => a.t - b.t);
    const drop = files.slice(0, Math.max(1, files.length - Math.floor(this.maxEntries * 0.9)));
    await Promise.all(drop.map(({ f }) => unlink(f).catch(() => {})));
    this.entries = files.length - drop.length;
  }
}
