import { readSync } from 'node:fs';
import { open, mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CaseResult } from '../core/results-schema.js';
import { reportedJson } from '../core/reported-json.js';
import { safeJson } from '../core/safe-json.js';
import { BatchedWrites } from './batched-writes.js';

/** Reading back goes through a window of this size: plan order is close to file order. */
const READ_WINDOW = 4 * 1024 * 1024;

/**
 * Finished cases streamed to a JSONL file as they end, so no run holds every trace in memory.
 * It remembers only where each case's line sits, to read them back in plan order.
 */
export class CaseStore {
  private handle: FileHandle | undefined;
  private offset = 0;
  private readonly spans = new Map<number, { start: number; length: number }>();
  private readonly writes = new BatchedWrites(async (batch) => {
    await this.handle!.writev(batch);
  });

  constructor(readonly path: string) {}

  async open(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    this.handle = await open(this.path, 'w+');
  }

  /** Records one case (its JSON text through `rewrite`); it reaches the disk within a moment or once a batch is full. */
  append(planIndex: number, result: CaseResult, rewrite: (json: string) => string = (json) => json): Promise<void> | undefined {
    // A trace may hold what JSON refuses (a circular reference, a BigInt): stored marked, not crashed on.
    // The text the redactor already made of this case, when it did.
    const line = Buffer.from(rewrite(reportedJson(result) ?? safeJson(result) ?? 'null') + '\n', 'utf8');
    this.spans.set(planIndex, { start: this.offset, length: line.length - 1 });
    this.offset += line.length;
    return this.writes.add(line);
  }

  /** Writes what is buffered. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** Each stored case's JSON text, in plan order, one at a time. */
  async *casesInOrder(): AsyncGenerator<string> {
    await this.flush();
    for (const bytes of this.storedBytesInOrder()) yield bytes.toString('utf8');
  }

  /**
   * Each stored case's JSON text as the UTF-8 bytes on disk, in plan order: written on as they are,
   * never decoded. Read synchronously, a window at a time: call it once `flush` resolved (it is read
   * at the run's end, when a round trip through the thread pool per window only adds to the tail).
   */
  *storedBytesInOrder(): Generator<Buffer> {
    const order = [...this.spans.keys()].sort((a, b) => a - b);
    let window = Buffer.alloc(0);
    let windowStart = 0;
    for (const idx of order) {
      const { start, length } = this.spans.get(idx)!;
      if (start < windowStart || start + length > windowStart + window.length) {
        // Refill from this case on; a case larger than the window gets a window of its own size.
        const size = Math.min(Math.max(READ_WINDOW, length), this.offset - start);
        // Not zeroed first: only the bytes read are ever used.
        window = Buffer.allocUnsafe(size);
        window = window.subarray(0, readSync(this.handle!.fd, window, 0, size, start));
        windowStart = start;
      }
      // A window is never refilled in place (a refill is a new buffer): what was yielded stays whole.
      yield window.subarray(start - windowStart, start - windowStart + length);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle?.close();
    this.handle = undefined;
  }
}
