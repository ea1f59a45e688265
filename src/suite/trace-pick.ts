import type { RecordedTrace } from '../core/recorded-trace.js';
import { samplePriority } from './dataset-pick.js';

/** Which of the traces read to keep: a time window on `startedAt`, then a seeded sample. */
export interface TracePick {
  since?: Date;
  until?: Date;
  sample?: number;
  seed?: number;
}

/**
 * The traces a pick keeps, in the order read, and a note per reason others were not: a trace id
 * met again (the first kept), a trace outside `since`/`until` (`until` exclusive) or without a time
 * when either is set, the rest of a sample. The sample takes the N traces of lowest
 * priority under the seed (dataset-pick.ts): the same N for the same seed whatever the files' order.
 */
export function pickTraces(read: readonly RecordedTrace[], pick: TracePick): { traces: RecordedTrace[]; notes: string[] } {
  const notes: string[] = [];
  const note = (n: number, what: string) => {
    if (n > 0) notes.push(`${n} ${what}`);
  };
  const ids = new Set<string>();
  const unique = read.filter((t) => !ids.has(t.id) && ids.add(t.id));
  note(read.length - unique.length, `repeating the id of an earlier trace (the first kept)`);

  let kept = unique;
  if (pick.since !== undefined || pick.until !== undefined) {
    const since = pick.since?.getTime() ?? -Infinity;
    const until = pick.until?.getTime() ?? Infinity;
    let untimed = 0;
    let before = 0;
    let after = 0;
    kept = unique.filter((t) => {
      const at = t.startedAt === undefined ? NaN : Date.parse(t.startedAt);
      if (Number.isNaN(at)) untimed++;
      else if (at < since) before++;
      else if (at >= until) after++;
      else return true;
      return false;
    });
    note(untimed, `without a recorded time (left out by --since/--until)`);
    note(before, 'before --since');
    note(after, 'at or after --until');
  }

  if (pick.sample !== undefined && kept.length > pick.sample) {
    const seed = pick.seed ?? 0;
    const priority = new Map(kept.map((t) => [t, samplePriority(seed, t.id)]));
    const chosen = new Set([...kept].sort((a, b) => (priority.get(a)! < priority.get(b)! ? -1 : priority.get(a)! > priority.get(b)! ? 1 : 0)).slice(0, pick.sample));
    note(kept.length - chosen.size, `left out by --sample ${pick.sample}`);
    kept = kept.filter((t) => chosen.has(t));
  }
  return { traces: kept, notes };
}
