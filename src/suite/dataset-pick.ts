import { createHash } from 'node:crypto';

/** `--limit N`, or `--sample N --seed S`: which rows of each dataset a run keeps. */
export interface DatasetPick {
  limit?: number;
  sample?: number;
  seed?: number;
}

/**
 * A row's sampling priority: the first 8 bytes of SHA-256 over the seed and the row's id. The hash
 * is the seeded generator: the same on every machine and Node version, and a row's priority
 * depends only on its id, so reordering a file does not change which rows are sampled.
 */
export function samplePriority(seed: number, id: string): bigint {
  return createHash('sha256').update(`${seed}\0${id}`).digest().readBigUInt64BE(0);
}

/**
 * Keeps the rows a pick selects while they stream past, holding at most N of them: the first N
 * for a limit, the N with the lowest priority for a sample (bottom-k reservoir sampling). `done()`
 * returns the kept rows in file order.
 */
export class RowPicker<T extends { row: number; id: string }> {
  /** A sample's rows, by priority. */
  private kept: Array<{ item: T; priority: bigint }> = [];
  /** The rows a limit (or no pick) keeps, already in file order. */
  private first: T[] = [];

  constructor(private readonly pick: DatasetPick) {}

  offer(item: T): void {
    const { limit, sample, seed = 0 } = this.pick;
    if (sample === undefined) {
      if (limit === undefined || this.first.length < limit) this.first.push(item);
      return;
    }
    const priority = samplePriority(seed, item.id);
    if (this.kept.length === sample && priority >= this.kept[sample - 1]!.priority) return;
    // Sorted by priority, so the worst kept row is last; N is small next to the file.
    let at = this.kept.length;
    while (at > 0 && this.kept[at - 1]!.priority > priority) at -= 1;
    this.kept.splice(at, 0, { item, priority });
    if (this.kept.length > sample) this.kept.pop();
  }

  done(): T[] {
    if (this.pick.sample === undefined) return this.first;
    return this.kept.map((k) => k.item).sort((a, b) => a.row - b.row);
  }
}
