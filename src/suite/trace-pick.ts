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
  // `2 traces not scored: started before --since 2026-12-01T00:00:00.000Z`: the count, then why.
  const note = (n: number, why: string) => {
    if (n > 0) notes.push(`${n} trace${n === 1 ? '' : 's'} not scored: ${why}`);
  };
  const ids = new Set<string>();
  const unique = read.filter((t) => !ids.has(t.id) && ids.add(t.id));
  note(read.length - unique.length, `the id of an earlier trace again (the first one is scored)`);

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
    note(untimed, 'no start time recorded, which --since/--until need');
    note(before, `started before --since ${pick.since?.toISOString()}`);
    note(after, `started at or after --until ${pick.until?.toISOString()}`);
  }

  if (pick.sample !== undefined && kept.length > pick.sample) {
    const seed = pick.seed ?? 0;
    const priority = new Map(kept.map((t) => [t, samplePriority(seed, t.id)]));
    const chosen = new Set([...kept].sort((a, b) => (priority.get(a)! < priority.get(b)! ? -1 : priority.get(a)! > priority.get(b)! ? 1 : 0)).slice(0, pick.sample));
    note(kept.length - chosen.size, `left out by --sample ${pick.sample} (--seed ${seed} picks which)`);
    kept = kept.filter((t) => chosen.has(t));
  }
  return { traces: kept, notes };
}
