import { mkdir, open, readFile, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { TokenUsage } from '../core/usage.js';
import { sha256Hex } from '../core/stable-hash.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { JudgeSettings } from './settings.js';

/** A judge call's answer as the cache keeps it. */
export interface CachedAnswer {
  text: string;
  tokens: TokenUsage;
  model: string;
  /**
   * How the reply ended, when not normally (`length`, `refusal`), and the refusal's words: shared
   * with identical calls of the run so each reports the cut or refusal. Never on disk: only answers
   * that validated are stored.
   */
  finishReason?: string;
  refusal?: string;
}

export interface CacheLookup extends CachedAnswer {
  /** True when this caller did not make the call itself (shared in this run, or from disk). */
  cached: boolean;
}

/**
 * Hash of everything that decides a judge's answer: provider and model (`spec`), system prompt,
 * prompt, schema, and `options` (endpoint, headers, temperature, token limit).
 */
export function judgeCacheKey(parts: { spec: string; system: string; user: string; schema: unknown; options: unknown }): string {
  return judgeCacheKeyOfJson([parts.spec, parts.system, parts.user, parts.schema, parts.options].map(jsonItem));
}

/**
 * judgeCacheKey from its parts already serialized (each as JSON.stringify gives it inside an
 * array), so a judge serializes once what all its calls share (system prompt, schema, options).
 * The array's JSON is its items' JSON joined by commas in brackets: the same text, the same key.
 */
export function judgeCacheKeyOfJson(items: readonly string[]): string {
  return sha256Hex(`[${items.join(',')}]`);
}

/** A value's JSON as an array item: `undefined` (and a function) become `null` there. */
export function jsonItem(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * Judge answers shared within a run (the same reply across repeats makes one call) and, with a
 * directory, across runs. On disk each run appends the answers it validated to one JSONL segment
 * (`<dir>/<time>-<pid>.jsonl`), so a run of thousands of judgments writes one file, not thousands;
 * a later run reads every segment once, on its first lookup. Past `maxEntries` the oldest segments
 * are deleted. Target calls never go through here: repeats must measure the agent.
 */
/** The run's disk cache of judge answers, under `<outputDir>/cache/judge`; undefined when caching is off. */
export function judgeCacheFor(settings: Pick<JudgeSettings, 'cache' | 'outputDir' | 'cacheMaxEntries'>, redactor?: SecretRedactor): JudgeCache | undefined {
  return settings.cache ? new JudgeCache(join(settings.outputDir, 'cache', 'judge'), settings.cacheMaxEntries, redactor) : undefined;
}

export class JudgeCache {
  private readonly inRun = new Map<string, Promise<CachedAnswer>>();
  private index: Map<string, { answer: CachedAnswer; segment: string }> | undefined;
  private loading: Promise<void> | undefined;
  private segment: { name: string; handle: FileHandle; entries: number } | undefined;
  private opening: Promise<void> | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Lines stored but not yet appended: written together, once per turn of the event loop. */
  private unwritten: string[] = [];

  constructor(
    private readonly dir: string | undefined,
    private readonly maxEntries = 50_000,
    /** The run's secrets never reach the disk, even when a judge quotes them. */
    private readonly redactor?: SecretRedactor,
  ) {}

  /**
   * The answer for `key`: shared with an identical call of this run, else from disk, else `call()`.
   * `share: false` skips the sharing in this run (a live call must not wait on one queued in a batch).
   */
  async getOrCall(key: string, call: () => Promise<CachedAnswer>, share = true): Promise<CacheLookup> {
    const shared = share ? this.inRun.get(key) : undefined;
    // Object.assign, not `{ ...answer, cached }`: V8 (Node 20) builds a literal that opens with a spread many times slower.
    if (shared) return Object.assign({}, await shared, { cached: true });
    let mine = false;
    const pending = (async () => {
      const stored = await this.read(key);
      if (stored) return stored;
      mine = true;
      return call();
    })();
    if (share) this.inRun.set(key, pending);
    try {
      const answer = await pending;
      return Object.assign({}, answer, { cached: !mine });
    } catch (err) {
      // A failed call is not shared with later identical requests: they may try again.
      if (share) this.inRun.delete(key);
      throw err;
    }
  }

  /** Keep a validated answer for later runs. */
  async store(key: string, answer: CachedAnswer): Promise<void> {
    if (!this.dir) return;
    await this.load();
    this.opening ??= this.openSegment();
    await this.opening;
    const seg = this.segment!;
    if (seg.entries >= this.maxEntries) return;
    seg.entries += 1;
    this.index!.set(key, { answer, segment: seg.name });
    // A judgment waits for no disk write: lines are batched (one write per event-loop turn rather than
    // one per answer) and appends are chained so batches never interleave. `close()` flushes.
    const kept = this.redactor ? Object.assign({}, answer, { text: this.redactor.redact(answer.text) }) : answer;
    this.unwritten.push(`${JSON.stringify({ key, answer: kept })}\n`);
    if (this.unwritten.length === 1) this.writes = this.writes.then(() => this.flush(seg.handle));
    if (this.index!.size > this.maxEntries) await this.prune();
  }

  private async flush(handle: FileHandle): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const text = this.unwritten.splice(0).join('');
    // The cache only saves calls: an answer that could not be written is asked again by a later run,
    // which is no reason to fail this run's verdicts.
    await handle.write(text).catch(() => {});
  }

  /** Flush and close this run's segment. */
  async close(): Promise<void> {
    await this.writes;
    await this.segment?.handle.close();
    this.segment = undefined;
    this.opening = undefined;
  }

  private async openSegment(): Promise<void> {
    await mkdir(this.dir!, { recursive: true });
    const name = `${new Date().toISOString().replace(/[-:.]/g, '')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`;
    this.segment = { name, handle: await open(join(this.dir!, name), 'a'), entries: 0 };
  }

  private async read(key: string): Promise<CachedAnswer | undefined> {
    if (!this.dir) return undefined;
    await this.load();
    return this.index!.get(key)?.answer;
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      const index = new Map<string, { answer: CachedAnswer; segment: string }>();
      for (const name of await this.segments()) {
        const text = await readFile(join(this.dir!, name), 'utf8').catch(() => '');
        for (const line of text.split('\n')) {
          const entry = parseEntry(line);
          if (entry) index.set(entry.key, { answer: entry.answer, segment: name });
        }
      }
      this.index = index;
      if (index.size > this.maxEntries) await this.prune();
    })();
    return this.loading;
  }

  /** Segment names, oldest first (names start with their creation time). */
  private async segments(): Promise<string[]> {
    return (await readdir(this.dir!).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl')).sort();
  }

  /** Deletes the oldest segments (never this run's) until the entries fit the bound. */
  private async prune(): Promise<void> {
    const index = this.index!;
    for (const name of await this.segments()) {
      if (index.size <= this.maxEntries || name === this.segment?.name) break;
      await unlink(join(this.dir!, name)).catch(() => {});
      for (const [key, v] of index) if (v.segment === name) index.delete(key);
    }
  }
}

/** One cache line, or undefined for a torn or foreign one (a miss, never an error). */
function parseEntry(line: string): { key: string; answer: CachedAnswer } | undefined {
  if (!line.trim()) return undefined;
  try {
    const v = JSON.parse(line) as { key?: unknown; answer?: CachedAnswer };
    return typeof v.key === 'string' && typeof v.answer?.text === 'string' && v.answer.tokens ? { key: v.key, answer: v.answer } : undefined;
  } catch {
    return undefined;
  }
}
