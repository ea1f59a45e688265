import type { RunInfo } from '../core/results-schema.js';

/** When a run started, as people read it: `2026-12-03 15:40:12 UTC`; a start that does not parse, as written. */
export function runStartText(startedAt: string): string {
  const t = Date.parse(startedAt);
  return Number.isNaN(t)
    ? startedAt
    : new Date(t)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

/** A run as history and the estimate name it: its start and, when known, its commit (`2026-12-03 15:40:12 UTC · 1a2b3c4`). */
export function runLabel(run: Pick<RunInfo, 'startedAt' | 'gitSha'>): string {
  return runStartText(run.startedAt) + (run.gitSha ? ` · ${run.gitSha.slice(0, 7)}` : '');
}

/**
 * What kind of run it was when not a plain one, in a few words (`watch: 1 case re-run`, `last failed`,
 * `shard 1/2`, `scored: 20 recorded traces`); null for a plain run. A filtered run shows as its case count wherever runs are listed.
 */
export function runKind(run: Pick<RunInfo, 'watch' | 'lastFailedFrom' | 'shard' | 'rejudgedFrom' | 'resumedFrom' | 'retriedFrom' | 'scoredFrom'>): string | null {
  const kinds: string[] = [];
  // Recorded traces graded, not a run of the agent: said first, wherever runs are listed.
  if (run.scoredFrom) kinds.push(`scored: ${run.scoredFrom.traces} recorded trace${run.scoredFrom.traces === 1 ? '' : 's'}`);
  if (run.watch) kinds.push(`watch: ${run.watch.rerun.length} case${run.watch.rerun.length === 1 ? '' : 's'} re-run`);
  if (run.lastFailedFrom !== undefined) kinds.push('last failed');
  if (run.shard) kinds.push(`shard ${run.shard.index}/${run.shard.total}`);
  if (run.rejudgedFrom) kinds.push('re-judged');
  if (run.resumedFrom !== undefined) kinds.push('resumed');
  if (run.retriedFrom !== undefined) kinds.push('errors retried');
  return kinds.length ? kinds.join(', ') : null;
}
