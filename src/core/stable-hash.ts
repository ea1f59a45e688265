import * as crypto from 'node:crypto';
import { configure } from 'safe-stable-stringify';

// Keys sorted, so a reordered mapping is the same value; a cycle is marked, never thrown on.
const stringify = configure({ deterministic: true, circularValue: '[circular]', bigint: true });

type Replacer = (key: string, value: unknown) => unknown;

// One-shot hashing (Node ≥ 20.12) skips building a Hash object per digest, which costs more than
// hashing a short text; the digest is the same bytes as createHash's.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The hex SHA-256 of a text (UTF-8). */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/** A short hex hash of a value's key-sorted JSON: the same value gives the same hash on every machine and run. */
export function stableHash(value: unknown, chars = 16, replacer?: Replacer): string {
  const text = (replacer ? stringify(value, replacer) : stringify(value)) ?? '';
  return textDigest(text, chars);
}

/** A short hex digest of a text: what a fingerprint keeps of a text it compares but does not repeat. */
export function textDigest(text: string, chars = 12): string {
  return sha256Hex(text).slice(0, chars);
}

/** A replacer under which a function counts by its source text. */
export const functionsBySource: Replacer = (_key, value) => (typeof value === 'function' ? `function:${String(value)}` : value);
