import { createHash } from 'node:crypto';
import type { AgentRun } from '../core/agent-run.js';
import type { TracePolicy } from '../core/judge-port.js';
import { safeJson } from '../core/safe-json.js';

export const TRACE_OPEN = '<untrusted-target-trace>';
export const TRACE_CLOSE = '</untrusted-target-trace>';

/** What stands for a value under the `safe` policy: a fingerprint and a shape, never the content. */
export interface Digest {
  hash: string;
  bytes: number;
  preview: unknown;
}

const MAX_DEPTH = 3;
const MAX_KEYS = 20;

/** The shape of a value: `<string:42>`, objects by key, arrays by length, depth-capped. */
export function shapeOf(value: unknown, depth = 0): unknown {
  if (value === null) return null;
  if (typeof value === 'string') return `<string:${[...value].length}>`;
  if (typeof value === 'number' || typeof value === 'boolean') return `<${typeof value}>`;
  if (Array.isArray(value)) return `<array:${value.length}>`;
  if (typeof value === 'object') {
    if (depth >= MAX_DEPTH) return '<object>';
    const entries = Object.entries(value as Record<string, unknown>);
    const shown = Object.fromEntries(entries.slice(0, MAX_KEYS).map(([k, v]) => [k, shapeOf(v, depth + 1)]));
    return entries.length > MAX_KEYS ? { ...shown, '…': `<${entries.length - MAX_KEYS} more keys>` } : shown;
  }
  return `<${typeof value}>`;
}

export function digest(value: unknown): Digest {
  const text = typeof value === 'string' ? value : (safeJson(value) ?? String(value));
  const buf = Buffer.from(text, 'utf8');
  return { hash: `sha256:${createHash('sha256').update(buf).digest('hex')}`, bytes: buf.length, preview: shapeOf(value) };
}

/**
 * The target's trace as a judge sees it. `safe` (default): tool names, order, error flags, timing
 * and usage in clear; arguments, results and error text only as digests. `full`: everything.
 */
export function projectTrace(run: AgentRun, policy: TracePolicy): Record<string, unknown> {
  const conceal = (v: unknown) => (v === undefined ? undefined : policy === 'full' ? v : digest(v));
  return {
    policy,
    ...(run.model ? { model: run.model } : {}),
    ...(run.stopReason ? { stopReason: run.stopReason } : {}),
    ...(run.usage ? { usage: run.usage } : {}),
    steps: (run.steps ?? []).map((s, i) => ({
      step: i + 1,
      // The agent's own step text is in clear: the policy conceals tool data, not what the agent said.
      ...(s.text !== undefined ? { text: s.text } : {}),
      ...(s.toolCalls?.length
        ? {
            toolCalls: s.toolCalls.map((c) => ({
              name: c.name,
              ...(c.isError !== undefined ? { isError: c.isError } : {}),
              ...(c.durationMs !== undefined ? { durationMs: Math.round(c.durationMs) } : {}),
              ...(c.args !== undefined ? { args: conceal(c.args) } : {}),
              ...(c.result !== undefined ? { result: conceal(c.result) } : {}),
            })),
          }
        : {}),
      ...(s.usage ? { usage: s.usage } : {}),
    })),
  };
}

/**
 * JSON for inside the untrusted block. Every `<` is written as `\u003c` (still valid JSON, the
 * same string to a reader), so no text from the target can close the block or open a tag.
 */
export function untrustedJson(value: unknown): string {
  return (safeJson(value, undefined, 2) ?? 'null').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/** The delimited block that carries everything the target produced. */
export function untrustedBlock(value: unknown): string {
  return `${TRACE_OPEN}\n${untrustedJson(value)}\n${TRACE_CLOSE}`;
}
