import type { CostEstimate, SuiteEstimate } from '../runner/estimate/estimate.js';
import type { RoleEstimate } from '../runner/estimate/role-estimate.js';
import { formatTokens } from '../report/format.js';
import { runLabel } from '../report/run-label.js';
import { largest } from '../core/extremes.js';

/** A recorded run planned cases are priced from, as the text names it. */
export interface EstimateRun {
  /** Its results document, relative to the working directory. */
  file: string;
  runId: string;
  startedAt: string;
  gitSha: string | null;
  /** How many planned cases it prices. */
  cases: number;
}

/** Where an estimate's numbers come from, as the text names it. */
export interface EstimateSource {
  /** The recorded runs, newest first; none when no recording holds a planned case. */
  runs: readonly EstimateRun[];
  /** The price table's date (the bundled one; the config's `pricing` over it). */
  pricesAsOf: string;
}

/** A recorded run in the estimate's words: `run <id>, started <date time> · <commit>`. */
const runText = (r: EstimateRun) => `run ${r.runId}, started ${runLabel(r)}`;

/**
 * `run --estimate` as text: where it priced from (one recorded run, or several: the newest result of
 * each case, each run with its date and how many cases it priced), a row per suite and the total
 * (cases, planned trials, target, judge, the user model when a case has a simulated user, and total
 * dollars), the judging assumed again (cache hits, batch), the user model's calls and tokens with their
 * bound, and the cases with no history.
 */
export function estimateText(e: CostEstimate, source: EstimateSource): string {
  const [only] = source.runs;
  const priced = `priced with the table of ${source.pricesAsOf}; nothing was called:`;
  const head =
    source.runs.length > 1
      ? `Estimated cost from the newest recorded result of each case, in ${source.runs.length} runs (listed below), ${priced}`
      : only
        ? `Estimated cost from ${only.file} (${runText(only)}), ${priced}`
        : `No recorded run holds these cases: nothing to estimate from (run them once, or name a results file with --from); nothing was called:`;
  const users = e.total.user.maxCalls > 0;
  const rows = [['suite', 'cases', 'trials', 'target', 'judge', ...(users ? ['user'] : []), 'total'], ...e.suites.map((s) => row(s.suite, s, users)), row('total', e.total, users)];
  const widths = rows[0]!.map((_, i) => largest(rows.map((r) => r[i]!.length)));
  const table = rows.map((r) => '  ' + r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
  const lines = [head, table];
  if (source.runs.length > 1) {
    lines.push('  priced from, newest first:');
    const width = largest(source.runs.map((r) => plural(r.cases, 'case').length));
    for (const r of source.runs) lines.push(`    ${plural(r.cases, 'case').padStart(width)} from ${runText(r)} (${r.file})`);
  }
  if (e.judge.answered > 0) {
    const asked = e.judge.answered - e.judge.cached;
    lines.push(
      `  judge: ${pct(e.judge.cached, e.judge.answered)} of ${formatTokens(e.judge.answered)} recorded answers came from the cache, ${pct(e.judge.batch, asked)} of those asked went through a batch API (assumed again)`,
    );
  }
  const em = e.embeddings;
  if (em.replies + em.references > 0) {
    lines.push(
      `  similarTo: ${plural(em.replies + em.references, 'embedding')} (${em.replies} of replies, one per assertion per trial; ${em.references} of references, once each), ${usdText(em.usd)}${em.unpriced ? ` (+${em.unpriced} with no known price)` : ''} in the judge column, at about 4 characters a token`,
    );
  }
  if (users) {
    const u = e.total.user;
    lines.push(
      `  user model: ${formatTokens(Math.round(u.calls))} calls, ${formatTokens(Math.round(u.inputTokens))} input and ${formatTokens(Math.round(u.outputTokens))} output tokens expected (the recorded mean per trial); at most ${formatTokens(u.maxCalls)} calls (maxTurns per trial)`,
    );
  }
  const unpriced = Math.max(e.total.target.unpriced, e.total.judge.unpriced, e.total.user.unpriced);
  if (unpriced > 0) lines.push(`  unpriced: ${plural(unpriced, 'case')} used a model with no known price and no recorded cost: not in the dollars above (add it under \`pricing\`)`);
  if (e.total.noHistory.length > 0) {
    lines.push(`  no history: ${plural(e.total.noHistory.length, 'case')}, not priced${em.replies > 0 ? ' (but for their similarTo embeddings)' : ''}:`);
    for (const key of e.total.noHistory) lines.push(`    ${key}`);
  }
  lines.push('  (every planned trial is counted; early stop may spend less)');
  return lines.join('\n') + '\n';
}

function row(name: string, s: Omit<SuiteEstimate, 'suite'>, users: boolean): string[] {
  const total = { usd: s.target.usd + s.judge.usd + s.user.usd, unpriced: s.target.unpriced + s.judge.unpriced + s.user.unpriced };
  return [name, String(s.cases), String(s.trials), dollars(s.target), dollars(s.judge), ...(users ? [dollars(s.user)] : []), dollars(total)];
}

/** Dollars to 3 significant digits below $1 (an estimate of a cheap run is still readable). */
export function usdText(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 1e-6) return '<$0.000001';
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${Number(usd.toPrecision(3))}`;
}

/** `+?` when part of it could not be priced. */
const dollars = (r: RoleEstimate) => usdText(r.usd) + (r.unpriced > 0 ? '+?' : '');
const pct = (n: number, of: number) => (of === 0 ? '0%' : `${Math.round((100 * n) / of)}%`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
