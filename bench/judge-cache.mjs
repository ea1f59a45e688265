// The judge cache hit rate of a tool-using agent over `--repeat 5` (not a test: `npm run bench:judge-cache`).
// CASES cases (a distinct order each), one rubric judge assertion, a function target whose two tool
// calls take a different time on every call (bench/judge-cache-figures.mjs) while its reply and tool
// results stay the same, run through the real CLI with `--repeat 5 --no-early-stop` and the judge cache
// on (a fresh project, so no earlier run's answers), judged by an OpenAI judge on the loopback mock LLM.
// Five trials of a case whose judge prompts are the same make one judge call and four from the cache;
// a prompt that carries the tool timings makes five calls. Counts are deterministic: no timing is reported.
//
//   npm run bench:judge-cache                                   this tree's figures
//   node bench/judge-cache.mjs --root /tmp/before --out /tmp/before.json --no-results-md
//                                                               another tree's CLI (built), e.g. an older commit
//   npm run bench:judge-cache -- --before /tmp/before.json      beside an earlier run's figures
//
// Writes bench/judge-cache.json (the figures, the commit measured, and the earlier run's when given) and
// the "Judge cache over repeats" section of bench/RESULTS.md.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockLlm } from './mock-llm.mjs';
import { cacheFigures, cacheTable, TOOL_DELAYS_MS } from './judge-cache-figures.mjs';
import { writeResultsSection } from './results-section.mjs';
import { runCli } from './run-cli.mjs';
import { measuredCommit } from './measured-commit.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { root: { type: 'string' }, before: { type: 'string' }, out: { type: 'string' }, 'no-results-md': { type: 'boolean' } } });
// The tree whose CLI runs (default this one); the agent and the figures are always this bench's.
const root = resolve(flags.root ?? join(here, '..'));
const cli = join(root, 'bin', 'agent-evals.js');
const work = join(here, 'work', 'judge-cache');
const CASES = Number(process.env.JUDGE_CACHE_CASES ?? 20);
const REPEAT = 5;
const MARKER = '<!-- judge cache bench -->';

function suiteYaml() {
  const lines = ['suite: judge-cache', 'target: tools', 'cases:'];
  for (let i = 0; i < CASES; i++) {
    lines.push(
      `  - id: c${i}`,
      `    input: "What is the status of order A${1000 + i}?"`,
      '    assert:',
      '      - { type: judge, criteria: "Answers with the order\'s status and its tracking number." }',
    );
  }
  return lines.join('\n') + '\n';
}

const configMjs = (url) => `import { toolAgent } from ${JSON.stringify(pathToFileURL(join(here, 'judge-cache-figures.mjs')).href)};
export default {
  evals: ['*.eval.yaml'],
  targets: { tools: toolAgent() },
  judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${url}/v1' },
  concurrency: 10,
  outputDir: '.agent-evals',
};
`;

async function main() {
  // Read first: `--before` may name the file this run overwrites.
  const before = flags.before ? JSON.parse(readFileSync(flags.before, 'utf8')) : undefined;
  if (!existsSync(cli)) throw new Error(`no CLI at ${cli}: build that tree first (npm run build)`);
  const mock = await startMockLlm({ latencyMs: 0, maxLifetimeMs: 10 * 60_000 });
  let figures;
  try {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'bench.eval.yaml'), suiteYaml());
    writeFileSync(join(work, 'evals.config.mjs'), configMjs(mock.url));
    const r = await runCli(cli, ['run', '--repeat', String(REPEAT), '--no-early-stop', '--json', 'results.json'], work);
    const resultsPath = join(work, 'results.json');
    if (!existsSync(resultsPath) || (r.code !== 0 && r.code !== 1)) throw new Error(`the run failed (exit ${r.code}): ${r.err.slice(-600)}`);
    figures = cacheFigures(JSON.parse(readFileSync(resultsPath, 'utf8')), mock.stats());
  } finally {
    await mock.close();
  }
  const run = { commit: measuredCommit(root), date: new Date().toISOString().slice(0, 10), node: process.version, cases: CASES, repeat: REPEAT, toolDelaysMs: TOOL_DELAYS_MS, figures };
  writeFileSync(flags.out ?? join(here, 'judge-cache.json'), JSON.stringify(before ? { ...run, before } : run, null, 2) + '\n');
  const measured = before ? `before: commit ${before.commit} (${before.date}); after: commit ${run.commit} (${run.date})` : `measured on commit ${run.commit} (${run.date})`;
  const agreement =
    figures.runnerAgrees && (!before || before.figures.runnerAgrees)
      ? "The judge calls and tokens in the results file equal the mock's counts."
      : "The judge calls or tokens in the results file differ from the mock's counts.";
  const section = `${MARKER}
## Judge cache over repeats

Generated by \`npm run bench:judge-cache\`, ${measured}, Node ${process.version}.
${CASES} cases × \`--repeat ${REPEAT} --no-early-stop\` of a tool-using function target (two tool calls per trial,
each taking the next of ${TOOL_DELAYS_MS.join(', ')} ms in turn, so no two trials of a case have the same
tool timings; the reply and tool results depend on the case only), one rubric judge assertion, the judge
cache on in a fresh project, an OpenAI judge on the loopback mock LLM. Judgments asked = calls made +
calls from the cache (the run's own sharing: the same judge request within a run makes one call); hit
rate = from the cache ÷ asked. Calls made are the mock's count of judge requests; tokens are the mock's
deterministic estimate (bench/mock-llm.mjs). The figures do not depend on the machine or its load.
${agreement}
The raw figures are in bench/judge-cache.json.

${cacheTable(run, before)}
`;
  if (!flags['no-results-md']) writeResultsSection(join(here, 'RESULTS.md'), MARKER, section);
  console.log(section);
  if (!figures.runnerAgrees || figures.judgments === 0) process.exitCode = 1;
}

await main();
