/** Pieces are written in batches of about this size (or after FLUSH_MS), not one syscall a case. */
const FLUSH_BYTES = 256 * 1024;
const FLUSH_MS = 200;

/**
 * Pieces of text appended to one file in batches, in order: the run's streamed cases and its raw
 * trials. A case a trial ends with costs a string kept, not an open, a write and a close, nor a
 * buffer of its own: a batch is encoded once, when it is written.
 */
export class BatchedWrites {
  private pending: Promise<void> = Promise.resolve();
  private buffer: string[] = [];
  private buffered = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `write`: puts one batch at the end of the file (called in order, one at a time). */
  constructor(private readonly write: (batch: Buffer) => Promise<void>) {}

  /**
   * Queues one piece (`bytes`: its UTF-8 length); it reaches the file within FLUSH_MS, or once a
   * batch is full: then the returned promise waits for it. Nothing is returned while it waits in the batch.
   */
  add(piece: string, bytes: number = Buffer.byteLength(piece, 'utf8')): Promise<void> | undefined {
    this.buffer.push(piece);
    this.buffered += bytes;
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
    const batch = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.buffered = 0;
    this.pending = this.pending.then(() => this.write(batch));
    return this.pending;
  }
}
