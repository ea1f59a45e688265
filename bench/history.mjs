// `agent-evals report --history` over 300 results files (not a test: `npm run bench:history`).
// Runs 100 cases × 3 trials once through `agent-evals run` (a function target with one tool call per
// trial, `trace: 'full'`), copies its results.json 300 times with the start, a few verdicts and the
// cost varied, then times the history page over the folder (wall time and peak RSS of the child, by
// /usr/bin/time; median of 3) and, in this process, what reading them costs: read and JSON.parse,
// then the history's schema (ResultsSchema, cases cut to what the page shows) against the whole
// ResultsSchema. Writes the "History" section of bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeResultsSection } from './results-section.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'bin', 'agent-evals.js');
const dir = join(here, 'work', 'history');
const CASES = 100;
const REPEAT = 3;
const FILES = 300;
const TIMES = 3;
const GOAL_S = 5;

if (!existsSync('/usr/bin/time')) throw new Error('bench:history measures peak RSS with /usr/bin/time, which is not installed');

function timed(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '__TIME__ %e %M', process.execPath, cli, ...args], { cwd: dir, env: { ...process.env, CI: '1', NO_COLOR: '1' }, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`agent-evals ${args.join(' ')} exited ${r.status}:\n${r.stderr.slice(-2000)}`);
  const m = /__TIME__ ([\d.]+) (\d+)/.exec(r.stderr);
  return { wallS: Number(m[1]), rssMb: Number(m[2]) / 1024 };
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, 'runs'), { recursive: true });
writeFileSync(
  join(dir, 'rows.jsonl'),
  Array.from({ length: CASES }, (_, i) => JSON.stringify({ input: `What is the status of order A${1000 + i}? Please answer in full.`, order: `A${1000 + i}` })).join('\n') + '\n',
);
writeFileSync(join(dir, 'bench.eval.yaml'), 'suite: bench\ntarget: agent\ndataset: rows.jsonl\nassert:\n  - { type: contains, value: "{{order}}" }\n');
writeFileSync(
  join(dir, 'evals.config.mjs'),
  `export default { evals: ['*.eval.yaml'], trace: 'full', concurrency: 50, outputDir: '.agent-evals', targets: { agent: async (input) => {
    const order = /A\\d+/.exec(input)[0];
    const status = { order, status: 'shipped', carrier: 'DHL', items: [{ sku: 'X-' + order, qty: 2 }], history: Array.from({ length: 8 }, (_, i) => 'event ' + i + ' for ' + order) };
    return { reply: 'Order ' + (Math.random() < 0.9 ? order : 'unknown') + ' has shipped with DHL; '.repeat(6), steps: [{ text: 'Looking it up.', toolCalls: [{ name: 'lookup_order', args: { order }, result: status }] }] };
  } } };\n`,
);
timed(['run', '--repeat', String(REPEAT), '--no-early-stop', '--json', 'results.json']);
const base = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
const fileKb = statSync(join(dir, 'results.json')).size / 1024;
for (let i = 0; i < FILES; i++) {
  const r = structuredClone(base);
  r.run.id = `run-${i}`;
  r.run.startedAt = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString();
  r.summary.usage.total.costUsd = 0.5 + (i % 7) / 10;
  // Every tenth case flips its verdict now and then.
  r.cases.forEach((c, k) => {
    if (k % 10 === 0 && (i + k) % 3 === 0) c.verdict = c.verdict === 'passed' ? 'failed' : 'passed';
  });
  writeFileSync(join(dir, 'runs', `r${String(i).padStart(3, '0')}.json`), JSON.stringify(r));
}
const totalMb = readdirSync(join(dir, 'runs')).reduce((n, f) => n + statSync(join(dir, 'runs', f)).size, 0) / 1024 / 1024;

const runs = [];
for (let t = 0; t < TIMES; t++) runs.push(timed(['report', '--history', 'runs', '-o', 'history.html']));
runs.sort((a, b) => a.wallS - b.wallS);
const median = runs[Math.floor(TIMES / 2)];
const pageKb = statSync(join(dir, 'history.html')).size / 1024;

// What each part of a read costs, summed over the files (one at a time, in this process).
const { ResultsSchema } = await import(pathToFileURL(join(root, 'dist', 'core', 'results-schema.js')).href);
const { HistoryResultsSchema } = await import(pathToFileURL(join(root, 'dist', 'cli', 'history-read.js')).href);
const ms = { parse: 0, history: 0, whole: 0 };
for (const f of readdirSync(join(dir, 'runs'))) {
  let t = performance.now();
  const data = JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8'));
  ms.parse += performance.now() - t;
  t = performance.now();
  if (!HistoryResultsSchema.safeParse(data).success) throw new Error(`${f}: not valid`);
  ms.history += performance.now() - t;
  t = performance.now();
  if (!ResultsSchema.safeParse(data).success) throw new Error(`${f}: not valid`);
  ms.whole += performance.now() - t;
}
const met = median.wallS <= GOAL_S;
// Other work on the machine slows every figure: the section says how busy it was.
const load = loadavg()[0].toFixed(1);

const section = `<!-- history bench -->
## History

Generated by \`npm run bench:history\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${load}: one run of ${CASES} dataset cases
× ${REPEAT} trials (a function target with one tool call per trial, \`trace: 'full'\`), its results.json
(${fileKb.toFixed(0)} KB) copied ${FILES} times (without the reporter's indentation of the run and summary) (${totalMb.toFixed(0)} MB in all) with the start, cost and some verdicts varied, then
\`agent-evals report --history\` over the folder: wall time of the whole command (start-up included) and
peak RSS, by /usr/bin/time, median of ${TIMES} (all: ${runs.map((r) => r.wallS.toFixed(2)).join(', ')} s). The page: ${pageKb.toFixed(0)} KB.

| files | MB read | wall s | peak RSS MB | goal | |
| --- | --- | --- | --- | --- | --- |
| ${FILES} | ${totalMb.toFixed(0)} | ${median.wallS.toFixed(2)} | ${median.rssMb.toFixed(0)} | ≤ ${GOAL_S} s | ${met ? 'met' : 'missed'} |

Where a read's time goes, summed over the ${FILES} files read one at a time in one process: read and
\`JSON.parse\` ${(ms.parse / 1000).toFixed(2)} s; the history's schema (ResultsSchema with each case cut to the
fields the page shows) ${(ms.history / 1000).toFixed(2)} s; the whole ResultsSchema, for comparison, ${(ms.whole / 1000).toFixed(2)} s.
`;
writeResultsSection(join(here, 'RESULTS.md'), '<!-- history bench -->', section);
console.log(section);
process.exitCode = met ? 0 : 1;
