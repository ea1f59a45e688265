import { open, mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CaseResult } from './results-schema.js';

/**
 * Finished cases streamed to a JSONL file as they end, so no run holds every trace in memory.
 * It remembers only where each case's line sits, to read them back in plan order.
 */
export class CaseStore {
  private handle: FileHandle | undefined;
  private offset = 0;
  private readonly spans = new Map<number, { start: number; length: number }>();
  private pending: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  async open(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    this.handle = await open(this.path, 'w+');
  }

  /** Appends one case; writes are chained so lines never interleave. */
  append(planIndex: number, result: CaseResult): Promise<void> {
    const line = Buffer.from(JSON.stringify(result) + '\n', 'utf8');
    const start = this.offset;
    this.offset += line.length;
    this.spans.set(planIndex, { start, length: line.length - 1 });
    this.pending = this.pending.then(async () => {
      await this.handle!.write(line, 0, line.length, start);
    });
    return this.pending;
  }

  get count(): number {
    return this.spans.size;
  }

  /** Each stored case's JSON text, in plan order, one at a time. */
  async *casesInOrder(): AsyncGenerator<string> {
    await this.pending;
    const order = [...this.spans.keys()].sort((a, b) => a - b);
    for (const idx of order) {
      const { start, length } = this.spans.get(idx)!;
      const buf = Buffer.alloc(length);
      await this.handle!.read(buf, 0, length, start);
      yield buf.toString('utf8');
    }
  }

  async close(): Promise<void> {
    await this.pending;
    await this.handle?.close();
    this.handle = undefined;
  }
}
