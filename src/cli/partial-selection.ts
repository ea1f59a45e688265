/** What a run's selection left out, as far as it changes which cases (or dataset rows) run. */
export interface SelectionFacts {
  flags: { filter?: string[]; tag?: string[]; excludeTag?: string[]; limit?: number; sample?: number; shard?: string };
  /** Eval paths given on the command line. */
  paths: readonly string[];
  /** Whether those paths leave out an eval file the config's globs find. */
  pathsLeaveOutFiles: boolean;
  /** Cases loaded, and cases left after --filter / --tag / --exclude-tag. */
  loaded: number;
  selected: number;
  /** The shard's number of parts (1 or none: the whole plan). */
  shardParts?: number | undefined;
}

/**
 * Why a run covers only part of its suite: the flags (or paths) that cut it, in the user's words.
 * Empty for a whole run. A selection flag that kept every case does not count; --limit and --sample
 * always do (the rows they leave out are not known here).
 */
export function partialReasons(f: SelectionFacts): string[] {
  const reasons: string[] = [];
  if (f.paths.length > 0 && f.pathsLeaveOutFiles) reasons.push(`eval paths ${f.paths.join(' ')}`);
  if (f.selected < f.loaded) {
    for (const [flag, values] of [
      ['--filter', f.flags.filter],
      ['--tag', f.flags.tag],
      ['--exclude-tag', f.flags.excludeTag],
    ] as const) {
      for (const v of values ?? []) reasons.push(`${flag} ${v}`);
    }
  }
  if (f.flags.limit !== undefined) reasons.push(`--limit ${f.flags.limit}`);
  if (f.flags.sample !== undefined) reasons.push(`--sample ${f.flags.sample}`);
  if (f.shardParts !== undefined && f.shardParts > 1) reasons.push(`--shard ${f.flags.shard}`);
  return reasons;
}
