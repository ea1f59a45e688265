// Judge tokens per judgment: read from a run's results file and from the mock LLM's counts, and
// printed as a Markdown table, optionally beside the same table of an earlier run ("before").
// Pure functions: bench/judge-bench.mjs and bench/run.mjs do the I/O.

/** The judge usage a results document reports: calls, input and output tokens (summary.usage.judge). */
export function judgeUsageOf(results) {
  const judge = results?.summary?.usage?.judge;
  if (!judge || typeof judge.calls !== 'number') throw new Error('results file has no summary.usage.judge');
  return { calls: judge.calls, inputTokens: judge.inputTokens, outputTokens: judge.outputTokens };
}

const per = (total, n) => (n > 0 ? Math.round((total / n) * 10) / 10 : NaN);

/**
 * One configuration's judge figures per judgment, from the mock's counts (judge requests, their
 * tokens, raw bytes and message characters), and whether the runner's reported usage agrees with them.
 */
export function judgeFigures(mockStats, runnerUsage) {
  const n = mockStats.judge;
  return {
    judgments: n,
    inputTokensPerJudgment: per(mockStats.judgeInputTokens, n),
    outputTokensPerJudgment: per(mockStats.judgeOutputTokens, n),
    requestBytesPerJudgment: per(mockStats.judgeRequestBytes, n),
    messageCharsPerJudgment: per(mockStats.judgeMessageChars, n),
    userCharsPerJudgment: per(mockStats.judgeUserChars, n),
    runnerAgrees: runnerUsage ? runnerUsage.calls === n && runnerUsage.inputTokens === mockStats.judgeInputTokens && runnerUsage.outputTokens === mockStats.judgeOutputTokens : undefined,
  };
}

const COLUMNS = [
  ['inputTokensPerJudgment', 'input tokens'],
  ['outputTokensPerJudgment', 'output tokens'],
  ['requestBytesPerJudgment', 'request bytes'],
  ['messageCharsPerJudgment', 'message chars'],
  ['userCharsPerJudgment', 'user message chars'],
];

const show = (x) => (Number.isFinite(x) ? String(x) : 'n/a');
const change = (before, after) => (Number.isFinite(before) && Number.isFinite(after) && before > 0 ? `${after >= before ? '+' : ''}${Math.round(((after - before) / before) * 100)}%` : 'n/a');
const keyOf = (row) => `${row.type}\u0000${row.judge}`;

/**
 * The per-criterion-type table (every figure per judgment). Given `before` (the JSON of an earlier
 * run), each figure gets a before, an after and a change column; rows match on criterion type and judge.
 */
export function judgeTable(run, before) {
  const earlier = new Map((before?.rows ?? []).map((r) => [keyOf(r), r]));
  const head = ['criterion type', 'judge', 'judgments'];
  if (before) for (const [, label] of COLUMNS) head.push(`${label} before`, `${label} after`, 'change');
  else head.push(...COLUMNS.map(([, label]) => `${label}`), 'runner = mock');
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const row of run.rows) {
    const cells = [row.type, row.judge, String(row.judgments)];
    const old = earlier.get(keyOf(row));
    for (const [key] of COLUMNS) {
      if (before) cells.push(show(old?.[key]), show(row[key]), change(old?.[key], row[key]));
      else cells.push(show(row[key]));
    }
    if (!before) cells.push(row.runnerAgrees === undefined ? 'n/a' : row.runnerAgrees ? 'yes' : 'NO');
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
