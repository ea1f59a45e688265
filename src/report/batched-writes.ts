/** Pieces are written in batches of about this size (or after FLUSH_MS), not one syscall a case. */
const FLUSH_BYTES = 256 * 1024;
const FLUSH_MS = 200;

/**
 * Pieces of text appended to one file in batches, in order: the run's streamed cases and its raw
 * trials. A case a trial ends with costs its bytes kept, not an open, a write and a close; a batch
 * is written as the pieces it holds (one writev), not copied into one buffer first.
 */
export class BatchedWrites {
  private pending: Promise<void> = Promise.resolve();
  private buffer: Buffer[] = [];
  private buffered = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `write`: puts one batch at the end of the file (called in order, one at a time). */
  constructor(private readonly write: (batch: Buffer[]) => Promise<void>) {}

  /**
   * Queues one piece; it reaches the file within FLUSH_MS, or once a batch is full: then the
   * returned promise waits for it. Nothing is returned while it waits in the batch.
   */
  add(piece: Buffer): Promise<void> | undefined {
    this.buffer.push(piece);
    this.buffered += piece.length;
    if (this.buffered >= FLUSH_BYTES) return this.flush();
    // A timed write that fails is not lost: the next flush (the run's end) rejects with it.
    this.timer ??= setTimeout(() => void this.flush().catch(() => {}), FLUSH_MS);
    return undefined;
  }

  /** Writes what is buffered; resolves once every piece added so far is written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffered === 0) return this.pending;
    const batch = this.buffer;
    this.buffer = [];
    this.buffered = 0;
    this.pending = this.pending.then(() => this.write(batch));
    return this.pending;
  }
}
