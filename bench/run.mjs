// Benchmarks of the runner against a loopback mock LLM (not a test: `npm run bench`).
// For each configuration it generates a suite, runs `agent-evals run` as a child process, and
// reports wall time against the ideal (requests ÷ concurrency × latency), runner CPU per trial,
// peak RSS, requests seen and the maximum in flight, and the judge's tokens and request bytes per
// judgment (the mock's counts). Each configuration with model calls also runs through a plain-Node
// reference runner (bench/reference-runner.mjs) for a side-by-side row. Writes bench/RESULTS.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockLlm } from './mock-llm.mjs';
import { judgeFigures, judgeUsageOf } from './judge-tokens.mjs';
import { measuredCommit } from './measured-commit.mjs';
import { readProfiles, summarize, topTables } from './profile-top.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'bin', 'agent-evals.js');
const work = join(here, 'work');
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 50);
const QUICK = process.argv.includes('--quick');
// `--profile [--n 2000]`: one configuration under `node --cpu-prof`, its top self-time entries printed.
const PROFILE = process.argv.includes('--profile');
const PROFILE_N = Number(process.argv[process.argv.indexOf('--n') + 1]) || 2000;
const hasTime = existsSync('/usr/bin/time');

function suiteYaml(n, { gateFailHalf = false } = {}) {
  const lines = ['suite: bench', 'target: agent', 'cases:'];
  for (let i = 0; i < n; i++) {
    lines.push(`  - id: c${i}`, `    input: "Question number ${i}: what is the status of order A${1000 + i}?"`, '    assert:');
    // Half the cases fail a gate in the counters variant: their judges must be skipped.
    lines.push(`      - { type: contains, value: "${gateFailHalf && i % 2 === 1 ? 'never-in-the-reply' : 'Answer'}" }`);
    lines.push('      - { type: judge, criteria: "Answers the question directly." }');
  }
  return lines.join('\n') + '\n';
}

function configMjs(mockUrl, { deterministic = false, fakeJudge = false } = {}) {
  const model = `{ provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${mockUrl}/v1' }`;
  const target = deterministic ? `async (input) => 'Answer: ' + input.split(':')[0]` : `{ model: ${model}, instructions: 'You answer order questions briefly.' }`;
  return `export default {
  evals: ['*.eval.yaml'],
  targets: { agent: ${target} },
  judge: ${fakeJudge ? "'fake'" : model},
  concurrency: ${CONCURRENCY},
  outputDir: '.agent-evals',
};
`;
}

/** Runs `node <script> ...args` under /usr/bin/time: wall, CPU and peak RSS of that process alone. */
function runChild(script, args, cwd, env, nodeArgs = []) {
  const cmd = hasTime ? '/usr/bin/time' : process.execPath;
  const argv = hasTime ? ['-f', '__TIME__ %e %U %S %M', process.execPath, ...nodeArgs, script, ...args] : [...nodeArgs, script, ...args];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env, CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const m = /__TIME__ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      resolve({ code, wallMs, cpuS: m ? Number(m[2]) + Number(m[3]) : NaN, rssMb: m ? Number(m[4]) / 1024 : NaN, out, err });
    });
  });
}

async function runConfig(mock, { name, n, repeat = 1, deterministic = false, fakeJudge = false, gateFailHalf = false, nodeArgs = [] }) {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bench.eval.yaml'), suiteYaml(n, { gateFailHalf }));
  writeFileSync(join(dir, 'evals.config.mjs'), configMjs(mock.url, { deterministic, fakeJudge }));
  mock.reset();
  const args = ['run', '--json', 'results.json', '--repeat', String(repeat)];
  const r = await runChild(cli, args, dir, { OPENAI_API_KEY: 'bench-key' }, nodeArgs);
  const stats = mock.stats();
  const results = existsSync(join(dir, 'results.json')) ? JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) : undefined;
  const trials = results?.summary.trials.run ?? n * repeat;
  return measured(r, stats, { name, n, repeat, trials, counters: results?.summary.counters, judge: judgeFigures(stats, results ? judgeUsageOf(results) : undefined) });
}

/** The same workload through the plain-Node reference runner. */
async function runReference(mock, { name, n, repeat = 1 }) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'reference.json');
  rmSync(out, { force: true });
  mock.reset();
  const args = ['--url', mock.url, '--n', String(n), '--repeat', String(repeat), '--concurrency', String(CONCURRENCY), '--out', out];
  const r = await runChild(join(here, 'reference-runner.mjs'), args, dir, {});
  const stats = mock.stats();
  const summary = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  return measured(r, stats, { name: `${name} reference`, n, repeat, trials: summary?.trials ?? n * repeat, reference: true, judge: judgeFigures(stats, summary?.usage.judge) });
}

/** A row of the speed table from a finished child and the mock's counts. */
function measured(r, stats, row) {
  const idealMs = (stats.requests / CONCURRENCY) * LATENCY_MS;
  const { trials } = row;
  return {
    ...row,
    exit: r.code,
    wallS: r.wallMs / 1000,
    idealS: idealMs / 1000,
    // No request, no ideal to compare with (the runner-only variant).
    efficiency: stats.requests ? idealMs / r.wallMs : NaN,
    cpuMsPerTrial: (r.cpuS * 1000) / trials,
    rssMb: r.rssMb,
    requests: stats.requests,
    maxInFlight: stats.maxInFlight,
    // The machine is shared: the 1-minute load average when the run ended says how busy it was.
    load: loadavg()[0],
    stderr: r.code === 0 || r.code === 1 ? '' : r.err.slice(-500),
  };
}

/** Median of 7 wall times of the CLI (or, `viaCli` false, of bare `node <args>`). */
async function startup(args, cwd, viaCli = true) {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    spawnSync(process.execPath, viaCli ? [cli, ...args] : args, { cwd, stdio: 'ignore' });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[3];
}

const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

/** Each target of the performance issue, met or missed, and by how much. */
function targetsSection(rows, references, versionMs, bareNodeMs, runnerOnly) {
  const row = (name) => rows.find((r) => r.name === name);
  const ref = (name) => references[rows.findIndex((r) => r.name === name)];
  const checks = [];
  const check = (what, value, ok, target) => checks.push(`| ${what} | ${value} | ${target} | ${ok === undefined ? 'not measured' : ok ? 'met' : 'missed'} |`);
  for (const name of ['n1000', 'n10000']) {
    const r = row(name);
    if (r) check(`efficiency, ${name}`, fmt(r.efficiency), r.efficiency >= 0.9, '≥ 0.90');
  }
  const big = row('n10000');
  const mid = row('n1000');
  if (big) check('CPU per trial incl. the SDK calls, N=10,000', `${fmt(big.cpuMsPerTrial)} ms`, big.cpuMsPerTrial <= 1, '≤ 1 ms');
  if (runnerOnly) check('runner-only CPU per trial (no model call), N=10,000', `${fmt(runnerOnly.cpuMsPerTrial)} ms`, runnerOnly.cpuMsPerTrial <= 1, '≤ 1 ms');
  if (big) check('peak RSS, N=10,000', `${fmt(big.rssMb, 0)} MB`, big.rssMb <= 200, '≤ 200 MB');
  if (big && mid) check('peak RSS, N=10,000 ÷ N=1,000', fmt(big.rssMb / mid.rssMb), big.rssMb / mid.rssMb < 2, '< 2');
  // Issue 25's goals: the runner's share against the plain-Node reference in the same run.
  if (big && ref('n10000')) {
    const ratio = big.cpuMsPerTrial / ref('n10000').cpuMsPerTrial;
    check('CPU per trial ÷ the reference, N=10,000 (median of the alternated pairs)', `${fmt(ratio)}×`, ratio <= 1.2, '≤ 1.2×');
  }
  if (mid && ref('n1000')) {
    const ratio = mid.wallS / ref('n1000').wallS;
    check('wall ÷ the reference, N=1,000 (median of the alternated pairs)', `${fmt(ratio)}×`, ratio <= 1.05, '≤ 1.05×');
  }
  check('`agent-evals --version`, median of 7', `${fmt(versionMs, 0)} ms`, versionMs <= 200, '≤ 200 ms');
  check('`agent-evals --version` ÷ `node -e 0`, median of 7', `${fmt(versionMs / bareNodeMs)}×`, versionMs / bareNodeMs <= 1.5, '≤ 1.5×');
  return ['', '## Targets', '', '| target | measured | goal | |', '| --- | --- | --- | --- |', ...checks, ''].join('\n');
}

/** What bounds the numbers, measured on this machine while tuning (see the commit history of bench/). */
const BOUNDS = `
## What bounds the numbers

- **Runner CPU per trial.** Each trial here is two HTTP calls through the official \`openai\` SDK. Measured
  in isolation against this mock (a loop of 2,000 calls, 50 in flight), one call costs about 1.7 ms of
  CPU over Node 20's built-in \`fetch\` and about 1.2 ms over \`node:http\` with keep-alive, which is
  why the providers hand the SDK a \`fetch\` of their own; most of what remains is the SDK's own request
  building and response parsing. Two such calls are about 2 ms, close to the whole per-trial figure at
  N=10,000: the calls, not the runner, bound it, and the 1 ms target is out of reach while the
  official SDKs are used (a requirement of the design). The runner-only row (a function target and the
  fake judge: no model call at all, results streamed to JSON) is the runner's own overhead per trial.
  The plain-Node reference rows measure the same two SDK calls per trial with no runner around them
  (the SDK with its default \`fetch\`, a minimal judge prompt about a quarter the size of ours), so the
  side-by-side ratio is the runner's own share on this machine at the time of the run; where the
  reference's CPU per trial is well under ours, the SDK calls alone do not explain the difference.
  Small runs show more per trial because the
  fixed start-up (about 0.5 s of CPU: loading the CLI, the SDK and the suite) is shared by fewer trials.
- **Efficiency at N=1,000.** Measured at the mock (spawn → first request → last answer → exit): about
  0.5 s pass before the first request (Node start ~70 ms; loading the CLI, zod and the SDK ~200 ms;
  the config and 1,000 cases ~150 ms; the first requests' cold JIT), the active phase runs at about 0.92
  of the ideal (4.35 s for 4 s: each SDK call costs ~1.2 ms of CPU on one thread, so answers that arrive
  together wait for each other), and ~0.1 s follow the last answer (writing the results document).
  Against a 4 s ideal the fixed half second alone costs about 0.1 of efficiency; at N=10,000 (40 s
  ideal) it costs about 0.01, which is why the larger run meets the target.
- **Peak RSS.** The live heap after a full GC stays near 40 MB through a 10,000-trial run: finished
  cases stream to \`.agent-evals/runs/<id>/cases.jsonl\` and their trials are dropped. What a trial
  allocates while its requests are in flight outlives the young generation and dies in the old one, so
  the peak is V8's headroom above the live heap. With V8's default growth the heap reached 150 MB in use
  before its first real collection (peak RSS 210–250 MB when last measured). The launcher's
  \`--heap-growing-percent=20\` (peak near 160 MB) was removed in issue 42 with the other start-up
  machinery: the peak is V8's default again (the table above has it).
`;

/**
 * The bench workload (model-agent target, inference judge) at N=`PROFILE_N` under `--cpu-prof`:
 * prints the CLI process's CPU per trial and the top self-time entries by file and by function
 * (bench/profile-top.mjs). The profiles stay in bench/work/profile/ for a closer look.
 */
async function profileMain() {
  const dir = join(work, 'profile');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mock = await startMockLlm({ latencyMs: LATENCY_MS, maxLifetimeMs: 20 * 60_000 });
  process.stderr.write(`profiling N=${PROFILE_N}…\n`);
  // Not through NODE_OPTIONS: node refuses --cpu-prof there.
  const row = await runConfig(mock, { name: 'profile-run', n: PROFILE_N, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  await mock.close();
  console.log(`N=${PROFILE_N}, exit ${row.exit}: runner CPU ${fmt(row.cpuMsPerTrial)} ms/trial (profiling adds its own share), load (1 min) ${fmt(row.load)}, profiles in ${dir}\n`);
  console.log(topTables(summarize(readProfiles(dir), root)));
}

async function main() {
  if (PROFILE) return profileMain();
  mkdirSync(work, { recursive: true });
  const mock = await startMockLlm({ latencyMs: LATENCY_MS, maxLifetimeMs: 20 * 60_000 });
  const series = QUICK
    ? [
        { name: 'n100', n: 100 },
        { name: 'n1000', n: 1000 },
      ]
    : [
        { name: 'n100', n: 100 },
        { name: 'n1000', n: 1000 },
        { name: 'n10000', n: 10000 },
        { name: 'n1000-repeat5', n: 1000, repeat: 5 },
      ];
  const rows = [];
  const references = [];
  const progress = (row) =>
    process.stderr.write(
      `  wall ${fmt(row.wallS)} s, ideal ${fmt(row.idealS)} s, efficiency ${fmt(row.efficiency)}, cpu ${fmt(row.cpuMsPerTrial)} ms/trial, rss ${fmt(row.rssMb, 0)} MB, load ${fmt(row.load)}${row.stderr ? `\n  ${row.stderr}` : ''}\n`,
    );
  // The two configurations issue 25's goals read are run in three alternated pairs, as a shared machine's
  // noise moves one run by 10-30%: N=1,000 keeps the pair with the median wall ratio (its goal), N=10,000
  // the pair with the median CPU ratio (its goal); every pair is listed.
  const pairedBy = { n1000: 'wall', n10000: 'cpu' };
  const pairsOf = {};
  for (const cfg of series) {
    const pairs = pairedBy[cfg.name] ? 3 : 1;
    const measuredPairs = [];
    for (let p = 0; p < pairs; p++) {
      process.stderr.write(`running ${cfg.name}${pairs > 1 ? ` (pair ${p + 1} of ${pairs})` : ''}…\n`);
      const row = await runConfig(mock, cfg);
      progress(row);
      process.stderr.write(`running ${cfg.name} through the plain-Node reference runner…\n`);
      const ref = await runReference(mock, cfg);
      progress(ref);
      const by = pairedBy[cfg.name] ?? 'wall';
      measuredPairs.push({ row, ref, by, ratio: by === 'cpu' ? row.cpuMsPerTrial / ref.cpuMsPerTrial : row.wallS / ref.wallS });
    }
    const median = [...measuredPairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(measuredPairs.length / 2)];
    rows.push(median.row);
    references.push(median.ref);
    if (pairs > 1) pairsOf[cfg.name] = measuredPairs;
  }
  process.stderr.write('running counters variant…\n');
  const counters = await runConfig(mock, { name: 'counters', n: 300, repeat: 3, deterministic: true, gateFailHalf: true });
  process.stderr.write('running runner-only variant…\n');
  // No model call at all (function target, fake judge): CPU per trial is the runner's own overhead.
  const runnerOnly = QUICK ? undefined : await runConfig(mock, { name: 'runner-only', n: 10000, deterministic: true, fakeJudge: true });
  const bareNode = await startup(['-e', '0'], root, false);
  const version = await startup(['--version'], root);
  const list = await startup(['list'], join(work, 'n100'));
  await mock.close();

  const label = (r) => `N=${r.n}${r.repeat > 1 ? ` ×${r.repeat}` : ''}${r.reference ? ', plain-Node reference' : ''}`;
  const perJudgment = (r) =>
    r.judge?.judgments ? `${fmt(r.judge.inputTokensPerJudgment, 0)} | ${fmt(r.judge.outputTokensPerJudgment, 0)} | ${fmt(r.judge.requestBytesPerJudgment, 0)}` : 'n/a | n/a | n/a';
  const table = [
    '| configuration | trials | exit | wall s | ideal s | efficiency | runner CPU ms/trial | peak RSS MB | requests | max in flight | judge input tokens/judgment | judge output tokens/judgment | judge request bytes/judgment | load (1 min) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...[...rows.flatMap((r, i) => [r, references[i]]), { ...counters, n: '300 (counters)' }, ...(runnerOnly ? [{ ...runnerOnly, n: '10000 (runner only)' }] : [])].map(
      (r) =>
        `| ${label(r)} | ${r.trials} | ${r.exit} | ${fmt(r.wallS)} | ${fmt(r.idealS)} | ${fmt(r.efficiency)} | ${fmt(r.cpuMsPerTrial)} | ${fmt(r.rssMb, 0)} | ${r.requests} | ${r.maxInFlight} | ${perJudgment(r)} | ${fmt(r.load)} |`,
    ),
  ].join('\n');
  const sideBySide = [
    '| configuration | wall s, agent-evals | wall s, reference | wall ratio | CPU ms/trial, agent-evals | CPU ms/trial, reference | CPU ratio | peak RSS MB, agent-evals | peak RSS MB, reference |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r, i) => {
      const ref = references[i];
      return `| ${label(r)} | ${fmt(r.wallS)} | ${fmt(ref.wallS)} | ${fmt(r.wallS / ref.wallS)}× | ${fmt(r.cpuMsPerTrial)} | ${fmt(ref.cpuMsPerTrial)} | ${fmt(r.cpuMsPerTrial / ref.cpuMsPerTrial)}× | ${fmt(r.rssMb, 0)} | ${fmt(ref.rssMb, 0)} |`;
    }),
  ].join('\n');
  const disagree = [...rows, ...references, counters].filter((r) => r.judge?.runnerAgrees === false).map((r) => r.name);
  const loads = [...rows, ...references, counters, ...(runnerOnly ? [runnerOnly] : [])].map((r) => r.load);
  const c = counters.counters ?? {};
  const md = `# Benchmark results

Generated by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}.
Mock LLM on 127.0.0.1 with ${LATENCY_MS} ms per request; run concurrency ${CONCURRENCY}; each trial is one
model-agent call and one judge call (2 requests). Ideal wall = requests ÷ concurrency × latency.
CPU and peak RSS are the \`agent-evals\` child process's own (from /usr/bin/time), so the mock's CPU is
not counted. Measured on commit ${measuredCommit(root)}.

Each configuration with model calls is run a second time through a plain-Node reference runner
(bench/reference-runner.mjs: the same target call and one judge call per trial through the official
\`openai\` SDK with its defaults, at most ${CONCURRENCY} trials at a time, a minimal rubric prompt, identical judge
prompts sharing one call; no agent-evals). Judge columns are per judgment, from the mock's counts
(tokens by the mock's deterministic rule, see bench/mock-llm.mjs; request bytes are the raw HTTP body);
${disagree.length ? `the runner's reported judge tokens differ from the mock's in: ${disagree.join(', ')}.` : "in every row the judge tokens the run reports equal the mock's counts."}
Token and byte counts are deterministic; wall and CPU are not: the machine is shared with other work,
and the 1-minute load average at the end of each run was ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))} on ${cpus().length} cores.

${table}

Side by side with the plain-Node reference runner (ratio = agent-evals ÷ reference):

${sideBySide}

Start-up (median of 7): \`node -e 0\` ${fmt(bareNode, 0)} ms, \`agent-evals --version\` ${fmt(version, 0)} ms, \`agent-evals list\` (100 YAML cases, .mjs config) ${fmt(list, 0)} ms.

Counters variant (300 cases × 3 repeats, deterministic function target, half the cases fail a gate):
judge calls skipped by gates ${c.judgeCallsSkippedByGates ?? 'n/a'}, judge calls from the cache ${c.judgeCallsFromCache ?? 'n/a'}
(${c.judgeTokensSavedByCache ?? 'n/a'} tokens saved), trials not run by early stop ${c.trialsNotRunEarlyStop ?? 'n/a'}; requests ${counters.requests}.
`;
  const resultsPath = join(here, QUICK ? 'RESULTS.quick.md' : 'RESULTS.md');
  // The sections after the first `<!-- … bench -->` marker are the other bench scripts': kept as they were.
  const previous = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
  const marker = previous.search(/<!-- \w+ bench -->/);
  const datasets = marker === -1 ? '' : '\n' + previous.slice(marker);
  const pairLine = (name, label) => {
    const pairs = pairsOf[name];
    if (!pairs) return '';
    const cpu = pairs[0].by === 'cpu';
    const what = cpu ? 'CPU ms/trial' : 'wall s';
    const shown = pairs.map((p) => (cpu ? `${fmt(p.row.cpuMsPerTrial)} / ${fmt(p.ref.cpuMsPerTrial)}` : `${fmt(p.row.wallS)} / ${fmt(p.ref.wallS)}`) + ` = ${fmt(p.ratio)}×`);
    return `\n${label} in ${pairs.length} alternated pairs (${what}, agent-evals / reference = ratio): ${shown.join('; ')}; the tables show the median pair.\n`;
  };
  const pairLines = pairLine('n1000', 'N=1,000') + pairLine('n10000', 'N=10,000');
  writeFileSync(resultsPath, md + pairLines + targetsSection(rows, references, version, bareNode, runnerOnly) + BOUNDS + datasets);
  console.log(md);
}

await main();
