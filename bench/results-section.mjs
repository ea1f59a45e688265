// Each bench script owns one section of bench/RESULTS.md, from its `<!-- name bench -->` marker to the
// next marker or the end; writing one section keeps every other as it was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces (or appends) the section that starts with `marker` in the results file at `path`. */
export function writeResultsSection(path, marker, section) {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const at = before.indexOf(marker);
  const end = at === -1 ? -1 : before.indexOf('<!-- ', at + 1);
  const rest = end === -1 ? '' : '\n' + before.slice(end);
  writeFileSync(path, (at === -1 ? before.trimEnd() + '\n\n' : before.slice(0, at)) + section + rest);
}
