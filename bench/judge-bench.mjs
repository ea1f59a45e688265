// Judge tokens per judgment for each criterion type (not a test: `npm run bench:judge`).
// Each criterion type is one small fixed workload (JUDGE_CASES cases, one judged assertion each, a
// model-agent target) run through the real CLI against the loopback mock LLM, once with an OpenAI
// judge and once with an Anthropic one. The mock counts every judge request's tokens, raw bytes and
// message characters (bench/mock-llm.mjs) and answers with that usage, so the runner's reported judge
// tokens must equal the mock's counts (the `runner = mock` column). Counts are deterministic: no timing.
//
//   npm run bench:judge                                   this tree's figures
//   npm run bench:judge -- --before bench/judge-tokens.json   beside an earlier run's (read before overwriting)
//
// Writes bench/judge-tokens.json (the raw figures, with the commit measured) and the "Judge tokens per
// judgment" section of bench/RESULTS.md; the last judge request of each configuration is kept in
// bench/work/judge/<name>/judge-request.json to look at.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockLlm } from './mock-llm.mjs';
import { judgeFigures, judgeTable, judgeUsageOf } from './judge-tokens.mjs';
import { writeResultsSection } from './results-section.mjs';
import { runCli } from './run-cli.mjs';
import { measuredCommit } from './measured-commit.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'bin', 'agent-evals.js');
const work = join(here, 'work', 'judge');
const CASES = Number(process.env.JUDGE_CASES ?? 10);
const MARKER = '<!-- judge bench -->';

const { values: flags } = parseArgs({ options: { before: { type: 'string' }, out: { type: 'string' }, 'no-results-md': { type: 'boolean' } } });

const RUBRIC = 'Answers the question directly and names the order.';
/** One configuration per criterion type the judges support: the assertion as an eval file writes it. */
const CRITERION_TYPES = [
  { type: 'judge (rubric)', assertion: `{ type: judge, criteria: "${RUBRIC}" }` },
  // The same rubric over a trace with two tool calls (previews under the default safe policy).
  { type: 'judge (rubric), tool-call trace', assertion: `{ type: judge, criteria: "${RUBRIC}" }`, target: 'tools' },
  { type: 'judge, scale: 10', assertion: `{ type: judge, criteria: "${RUBRIC}", scale: 10, min: 7 }` },
  { type: 'judge, choices', assertion: `{ type: judge, criteria: "${RUBRIC}", choices: { excellent: 1, acceptable: 0.6, poor: 0 }, threshold: 0.6 }` },
  { type: 'judge, dimensions', assertion: `{ type: judge, criteria: "${RUBRIC}", dimensions: { accuracy: 0.7, tone: 0.6 } }` },
  { type: 'judgeAgainst', assertion: '{ type: judgeAgainst, criteria: "States the same status as the reference." }' },
  { type: 'factuality', assertion: '{ type: factuality }' },
  { type: 'summarizes', assertion: '{ type: summarizes, source: "Orders ship within two days; a tracking number is sent by email once the parcel leaves the warehouse." }' },
  { type: 'closedQa', assertion: '{ type: closedQa, question: "Does the reply name an order number?" }' },
  { type: 'sql', assertion: '{ type: sql }', sql: true },
  { type: 'pairwise (both orders)', assertion: '{ type: pairwise }' },
];
const JUDGES = [
  { judge: 'openai', spec: (url) => `{ provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${url}/v1' }` },
  { judge: 'anthropic', spec: (url) => `{ provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: '${url}' }` },
];

function suiteYaml({ assertion, sql, target = 'agent' }) {
  const lines = ['suite: judge-bench', `target: ${target}`, 'cases:'];
  for (let i = 0; i < CASES; i++) {
    const reference = sql ? `SELECT status FROM orders WHERE id = 'A${1000 + i}'` : `Order A${1000 + i} has shipped and arrives on Friday.`;
    lines.push(`  - id: c${i}`, `    input: "Question number ${i}: what is the status of order A${1000 + i}?"`, `    reference: "${reference}"`, `    assert:`, `      - ${assertion}`);
  }
  return lines.join('\n') + '\n';
}

function configMjs(url, judgeSpec) {
  return `export default {
  evals: ['*.eval.yaml'],
  targets: {
    agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: '${url}/v1' }, instructions: 'You answer order questions briefly.' },
    // A tool-using agent's run, returned whole: fixed durations and usage keep the judge request the same on every run.
    tools: async (input) => {
      const id = /A\\d+/.exec(input)?.[0] ?? 'A0';
      const reply = \`Order \${id} has shipped (tracking 1Z\${id.slice(1)}99) and arrives on Friday.\`;
      return {
        reply,
        model: 'openai:gpt-4.1-mini',
        steps: [
          { toolCalls: [{ name: 'lookup_order', args: { id }, result: { id, status: 'shipped', carrier: 'UPS', eta: 'Friday' }, durationMs: 12 }], usage: { inputTokens: 180, outputTokens: 24 } },
          { toolCalls: [{ name: 'get_tracking', args: { id }, result: { tracking: \`1Z\${id.slice(1)}99\`, events: 3 }, durationMs: 9 }], usage: { inputTokens: 240, outputTokens: 20 } },
          { text: reply, usage: { inputTokens: 300, outputTokens: 28 } },
        ],
      };
    },
  },
  judge: ${judgeSpec},
  concurrency: 10,
  outputDir: '.agent-evals',
};
`;
}

async function main() {
  // Read first: `--before bench/judge-tokens.json` names the file this run overwrites.
  const before = flags.before ? JSON.parse(readFileSync(flags.before, 'utf8')) : undefined;
  const mock = await startMockLlm({ latencyMs: 0, maxLifetimeMs: 10 * 60_000 });
  const rows = [];
  try {
    for (const judge of JUDGES) {
      for (const ct of CRITERION_TYPES) {
        const name = `${ct.type.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}-${judge.judge}`;
        const dir = join(work, name);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'bench.eval.yaml'), suiteYaml(ct));
        writeFileSync(join(dir, 'evals.config.mjs'), configMjs(mock.url, judge.spec(mock.url)));
        mock.reset();
        const r = await runCli(cli, ['run', '--no-cache', '--json', 'results.json'], dir);
        const stats = mock.stats();
        const resultsPath = join(dir, 'results.json');
        const usage = existsSync(resultsPath) ? judgeUsageOf(JSON.parse(readFileSync(resultsPath, 'utf8'))) : undefined;
        if (mock.lastJudgeRequest()) writeFileSync(join(dir, 'judge-request.json'), JSON.stringify(JSON.parse(mock.lastJudgeRequest()), null, 2));
        const row = { type: ct.type, judge: judge.judge, ...judgeFigures(stats, usage) };
        rows.push(row);
        const trouble = r.code === 0 || r.code === 1 ? '' : ` exit ${r.code}: ${r.err.slice(-400)}`;
        process.stderr.write(
          `${ct.type} / ${judge.judge}: ${row.judgments} judgments, ${row.inputTokensPerJudgment} in, ${row.outputTokensPerJudgment} out, ${row.requestBytesPerJudgment} bytes${row.runnerAgrees === false ? ' — the runner reports other tokens than the mock counted' : ''}${trouble}\n`,
        );
      }
    }
  } finally {
    await mock.close();
  }
  const run = { commit: measuredCommit(root), date: new Date().toISOString().slice(0, 10), node: process.version, casesPerType: CASES, rows };
  writeFileSync(flags.out ?? join(here, 'judge-tokens.json'), JSON.stringify(run, null, 2) + '\n');
  const measured = before ? `before: commit ${before.commit} (${before.date}); after: commit ${run.commit} (${run.date})` : `measured on commit ${run.commit} (${run.date})`;
  const disagree = rows.filter((r) => r.runnerAgrees !== true).map((r) => `${r.type} / ${r.judge}`);
  const agreement = disagree.length
    ? `The judge tokens in the results file differ from the mock's counts in: ${disagree.join(', ')}.`
    : "In every row the judge tokens in the results file equal the mock's counts.";
  const section = `${MARKER}
## Judge tokens per judgment

Generated by \`npm run bench:judge\`, ${measured}, Node ${process.version}.
One configuration per criterion type: ${CASES} cases (a distinct question each), one judged assertion,
a model-agent target, all through \`agent-evals run --no-cache\` against the loopback mock LLM, with an
OpenAI judge (Chat Completions, \`json_schema\` strict) and an Anthropic one (Messages, forced tool).
Every figure is per judgment (one judge request; \`pairwise\` makes two per assertion, one per order).
Tokens are the mock's deterministic estimate (bench/mock-llm.mjs: cl100k-style pieces, one token per
started six characters, 3 per message, the response schema or tool counted as its JSON); request bytes
are the raw HTTP body; message chars are the system and user text, user message chars the user text
alone. The figures do not depend on the machine or its load.
${agreement}
The raw figures are in bench/judge-tokens.json; \`npm run bench:judge -- --before bench/judge-tokens.json\`
reads them, measures the tree again and puts both side by side.

${judgeTable(run, before)}
`;
  if (!flags['no-results-md']) writeResultsSection(join(here, 'RESULTS.md'), MARKER, section);
  console.log(section);
  if (rows.some((r) => r.runnerAgrees !== true || r.judgments === 0)) process.exitCode = 1;
}

await main();
