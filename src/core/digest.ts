import { createHash } from 'node:crypto';
import { safeJson } from './safe-json.js';

/** What stands for a value under the `safe` trace policy: a fingerprint and a shape, never the content. */
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

const HASH = /^sha256:[0-9a-f]{64}$/;

/** A value that is already a digest (exactly `hash`, `bytes`, `preview`, the hash well formed). */
export function isDigest(value: unknown): value is Digest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const v = value as Partial<Digest>;
  return keys.length === 3 && 'preview' in v && typeof v.hash === 'string' && HASH.test(v.hash) && Number.isInteger(v.bytes);
}

/**
 * A value as the `safe` policy shows it: its digest. A digest stays as it is, so data digested once
 * (a results file, a shard) is the same after any later pass, never a digest of a digest.
 */
export function conceal(value: unknown): Digest {
  return isDigest(value) ? value : digest(value);
}
