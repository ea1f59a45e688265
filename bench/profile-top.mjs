// The top self-time entries of a V8 .cpuprofile (what `node --cpu-prof` writes), by file and by
// function: where a run's CPU goes, without opening a profiler UI.
//
//   node bench/profile-top.mjs <file.cpuprofile | dir> [--top 25] [--root /path/to/repo]
//
// A directory means every .cpuprofile in it, summed (a run whose workers write their own).
// Self time is each sample's interval charged to the function on top of the stack. Paths are shown
// relative to `--root` (default: this repository), node_modules paths from the package name on.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));

/** Self time in microseconds per profile node id. */
function selfTimes(profile) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  // timeDeltas[i] is the time before sample i; the interval after a sample is charged to it.
  for (let i = 0; i < samples.length; i++) {
    const dt = timeDeltas[i + 1] ?? 0;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + Math.max(0, dt));
  }
  return self;
}

/** A file's short name: relative to the repository, `node_modules/<pkg>/…` from the package on, `node:…` as is. */
export function shortFile(url, root) {
  if (!url) return '(native)';
  let path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm);
  if (path.startsWith('/')) path = relative(root, path);
  return path;
}

/**
 * Sums the self time of `profiles` by file and by function. Returns both lists, largest first, with
 * the total sampled time (idle excluded: it is waiting, not CPU).
 */
export function summarize(profiles, root = join(here, '..')) {
  const byFile = new Map();
  const byFunction = new Map();
  let total = 0;
  for (const profile of profiles) {
    const self = selfTimes(profile);
    for (const node of profile.nodes) {
      const us = self.get(node.id);
      if (!us) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') continue;
      total += us;
      const file = shortFile(url, root);
      const fn = url ? `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}` : functionName || '(anonymous)';
      byFile.set(file, (byFile.get(file) ?? 0) + us);
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    }
  }
  const sorted = (m) => [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, byFile: sorted(byFile), byFunction: sorted(byFunction) };
}

/** The two top-N tables as markdown. */
export function topTables(summary, top = 25) {
  const rows = (list) => list.slice(0, top).map((e) => `| ${e.ms.toFixed(0)} | ${((100 * e.ms) / summary.totalMs).toFixed(1)}% | \`${e.name}\` |`);
  return [
    `Sampled CPU (idle excluded): ${summary.totalMs.toFixed(0)} ms.`,
    '',
    '| self ms | share | file |',
    '| --- | --- | --- |',
    ...rows(summary.byFile),
    '',
    '| self ms | share | function |',
    '| --- | --- | --- |',
    ...rows(summary.byFunction),
  ].join('\n');
}

/** The profiles at `path`: the file, or every .cpuprofile in the directory. */
export function readProfiles(path) {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(path, f))
    : [path];
  return files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, root: { type: 'string' } } });
  if (positionals.length !== 1) {
    console.error('usage: node bench/profile-top.mjs <file.cpuprofile | dir> [--top 25] [--root <repo>]');
    process.exit(2);
  }
  console.log(topTables(summarize(readProfiles(positionals[0]), values.root ?? join(here, '..')), Number(values.top)));
}
