import type { ToolCall } from '../core/agent-run.js';
import { isDigest } from '../core/digest.js';
import type { CaseResult, TrialResult } from '../core/results-schema.js';
import { safeJson } from '../core/safe-json.js';
import { formatTokens } from './format.js';
import { oneLine, terminalSafe } from './sanitize.js';

/** How much of each text a trial's lines show: enough to see what happened, never a screenful. */
const REPLY_CHARS = 300;
const VALUE_CHARS = 200;
/** Failed trials shown per case: the rest are in the results (and the same failure, as a rule). */
const MAX_TRIALS = 3;

/**
 * What the agent did in the trials of a case that did not pass (`-v`): each one's reply, cut, with
 * its full length, and its tool calls with arguments and results (an error's text), cut; per turn
 * for a conversation. Plain text made terminal-safe: replies and tool data are the agent's, and may
 * hold escapes meant to drive the terminal. Secrets were redacted before the text reached a reporter.
 */
export function missedTrialLines(r: CaseResult): string[] {
  const missed = r.trials.filter((t) => t.verdict === 'failed' || t.verdict === 'scored');
  const lines = missed.slice(0, MAX_TRIALS).flatMap((t) => trialLines(t, r.planned > 1 ? `trial ${t.index + 1} ` : ''));
  const more = missed.length - MAX_TRIALS;
  if (more > 0) lines.push(`… ${more} more trial${more === 1 ? '' : 's'} that did not pass (in the results)`);
  return lines;
}

/** One trial: its reply and calls, or each turn's. Call lines are indented under their reply. */
export function trialLines(t: TrialResult, label = ''): string[] {
  if (!t.turns?.length) return [replyLine(`${label}reply`, t.reply), ...(t.trace.steps ?? []).flatMap((s) => s.toolCalls ?? []).map(callLine)];
  return t.turns.flatMap((turn, i) => [replyLine(`${label}turn ${i + 1} reply`, turn.reply), ...turn.toolCalls.map(callLine)]);
}

/** `reply (1,234 chars): I looked the order up…` */
function replyLine(what: string, reply: string): string {
  const chars = [...reply].length;
  return `${what} (${formatTokens(chars)} char${chars === 1 ? '' : 's'})${chars ? `: ${shown(reply, REPLY_CHARS)}` : ''}`;
}

/** `  tool lookup_order {"orderId":"A2"} → {"status":"shipped"}`, an error's text after `→ error:`. */
function callLine(c: ToolCall): string {
  const args = c.args === undefined ? '' : ` ${valueText(c.args)}`;
  const result = c.result === undefined ? '' : ` → ${c.isError ? 'error: ' : ''}${valueText(c.result)}`;
  return `  tool ${shown(c.name, VALUE_CHARS)}${args}${result}${c.isError && c.result === undefined ? ' → error' : ''}`;
}

/** A value as compact JSON (a digest as the shape it stands for), cut. */
function valueText(value: unknown): string {
  if (isDigest(value)) return `<digest ${shown(safeJson(value.preview) ?? '', VALUE_CHARS)}>`;
  return shown(typeof value === 'string' ? JSON.stringify(value) : (safeJson(value) ?? String(value)), VALUE_CHARS);
}

/** One line, cut, with every control character and escape made visible. */
function shown(text: string, max: number): string {
  return terminalSafe(oneLine(text, max));
}
