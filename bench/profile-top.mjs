// Prints the top entries of a V8 .cpuprofile (from `node --cpu-prof`) by self time: per file and per
// function. Not a test: `node bench/profile-top.mjs <file.cpuprofile|dir> [--top 25] [--markdown]`.
// A directory means every .cpuprofile in it (the CLI and any worker threads), summed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 25 : Number(args[topAt + 1]);
const markdown = args.includes('--markdown');
const target = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top');
if (!target) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile|dir> [--top N] [--markdown]');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

/** A short place name: paths under node_modules keep the package, the project's own keep dist/src. */
function place(url) {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) return path.slice(nm);
  if (path.startsWith('node:')) return path;
  return relative(process.cwd(), path) || path;
}

const byFile = new Map();
const byFunction = new Map();
let totalUs = 0;
let idleUs = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  // timeDeltas[i] is the time before sample i, attributed to that sample's node.
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  for (const [id, us] of self) {
    const { callFrame } = nodes.get(id);
    const where = place(callFrame.url);
    const fn = `${callFrame.functionName || '(anonymous)'} ${where}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    // Idle is time the thread waited (for the mock, timers, I/O): not CPU. Reported apart.
    if (callFrame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    byFile.set(where, (byFile.get(where) ?? 0) + us);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    totalUs += us;
  }
}

function print(title, map) {
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  const ms = (us) => (us / 1000).toFixed(0);
  const pct = (us) => ((100 * us) / totalUs).toFixed(1);
  if (markdown) {
    console.log(`\n| ${title} | self ms | % |\n| --- | --- | --- |`);
    for (const [name, us] of rows) console.log(`| \`${name}\` | ${ms(us)} | ${pct(us)} |`);
  } else {
    console.log(`\n${title} (self time; ${ms(totalUs)} ms sampled busy, ${ms(idleUs)} ms idle, ${files.length} profile(s))`);
    for (const [name, us] of rows) console.log(`${ms(us).padStart(8)} ms ${pct(us).padStart(5)}%  ${name}`);
  }
}

print('by file', byFile);
print('by function', byFunction);
