import type { RedteamSummary } from '../core/redteam-schema.js';
import { formatUsage } from './format.js';
import { alignedRows } from './aligned-rows.js';
import { terminalSafe } from './sanitize.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

const HEADERS = ['plugin', 'target', 'attempts', 'succeeded', 'rate (95% CI)', 'decided by', 'errors'] as const;

/** `40% (12%–77%)`, or `–` when no attack ran. */
export function attackRateText(p: Pick<RedteamSummary['plugins'][number], 'rate' | 'interval'>): string {
  return p.rate === undefined ? '–' : `${pct(p.rate)}${p.interval ? ` (${pct(p.interval.low)}–${pct(p.interval.high)})` : ''}`;
}

/** How a plugin's attacks were decided, with the judge calls it took when a judge graded them. */
export function decidedByText(p: Pick<RedteamSummary['plugins'][number], 'decidedBy' | 'judgeCalls'>): string {
  return p.decidedBy === 'judge' ? `judge (${p.judgeCalls} call${p.judgeCalls === 1 ? '' : 's'})` : 'detector';
}

/**
 * The red team's table for the terminal: per plugin and target, attempts, successes and the rate with
 * its interval, how it was decided; then what each side spent and the successful attacks' case keys
 * (their transcripts are those cases' trials). Plugin, target and case names come from files: made terminal-safe.
 */
export function redteamLines(r: RedteamSummary): string[] {
  const rows = [
    [...HEADERS],
    ...r.plugins.map((p) => [p.plugin, p.target, String(p.attempts), String(p.successes), attackRateText(p), decidedByText(p), p.errors ? String(p.errors) : ''].map(terminalSafe)),
  ];
  const succeeded = r.plugins.flatMap((p) => p.succeeded.map((key) => `  ✗ ${terminalSafe(key)}  ${terminalSafe(p.plugin)}`));
  const successes = r.plugins.reduce((s, p) => s + p.successes, 0);
  const attempts = r.plugins.reduce((s, p) => s + p.attempts, 0);
  return [
    `Red team  ${r.source === 'seeds' ? 'seed attacks' : `seed attacks and attacks by ${terminalSafe(r.attacker ?? 'the attacker')}`}: ${successes} of ${attempts} attack${attempts === 1 ? '' : 's'} succeeded`,
    ...alignedRows(rows),
    `  usage: attacker ${formatUsage(r.usage.attacker)} · target ${formatUsage(r.usage.target)} · judge ${formatUsage(r.usage.judge)}`,
    ...(succeeded.length ? ['Successful attacks (a failed case is an attack that worked):', ...succeeded] : []),
  ];
}
