import { secretForms } from './secret-forms.js';
import { shapedSecrets } from './secret-shapes.js';
import { pushAll } from '../core/push-all.js';

/** Values shorter than this are not treated as secrets: redacting them would blank common words. */
const MIN_SECRET_LENGTH = 8;

/** Environment variable names whose values are secrets whatever else the run knows. */
export const SECRET_ENV_NAME = /(_KEY|_TOKEN|_SECRET)$|PASSWORD/i;

export const REDACTED = '[redacted]';

/**
 * Up to this many secrets, a text is searched for each form that contains no other before the
 * pattern replaces any: an alternation of many base64 forms scans slower than a few plain searches.
 */
const FEW_SECRETS = 8;

/** How many clean object keys a redactor remembers (a bound for values keyed by data, not by field names). */
const MAX_CLEAN_KEYS = 10_000;

/**
 * Replaces the actual values of the run's secrets (API keys, header values, …) wherever they occur
 * in text. Built once per run and applied at the output edges, before anything is cut short, so a
 * truncation can never leave part of a key behind.
 */
export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  readonly values: readonly string[];
  /**
   * What is matched: each secret and its JSON-escaped, URL-encoded and base64 forms (secret-forms.ts),
   * longest first, so a form that contains another is replaced whole.
   */
  readonly forms: readonly string[];
  /** The forms that contain no other: a text holds some form only if it holds one of these. */
  private readonly probes: readonly string[];
  /** Object keys found to hold no secret: the same few names recur in every event. */
  private readonly cleanKeys = new Set<string>();
  /**
   * What a value's JSON text holds where one of its strings holds a secret: each probe as JSON
   * escapes it, and each form's first and last few characters (a piece of it beside a cut mark).
   * Undefined when a secret holds a surrogate: JSON may escape half of a pair, so the text cannot tell.
   */
  private readonly inJson: { whole: readonly string[]; ends: readonly string[] } | undefined;

  constructor(values: Iterable<string>) {
    // A value's credential parts are secrets on their own: the token of `Bearer <token>` is redacted
    // wherever it appears, not only next to its scheme.
    this.values = [...new Set([...values].flatMap(secretParts).filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
    // Built once per run: every later text is searched with the one pattern, whatever the forms.
    this.forms = [...new Set(this.values.flatMap(secretForms).filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
    this.probes = this.forms.filter((f) => !this.forms.some((g) => g.length < f.length && f.includes(g)));
    // An alternation of escaped literals: no quantifier, so matching stays linear in the text.
    this.pattern = this.forms.length ? new RegExp(this.forms.map(escapeRegExp).join('|'), 'g') : undefined;
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
    this.inJson = this.values.some((v) => /[\uD800-\uDFFF]/.test(v))
      ? undefined
      : { whole: this.probes.map(escaped), ends: [...new Set(this.forms.flatMap((v) => [escaped(v.slice(0, MIN_CUT_PIECE)), escaped(v.slice(-MIN_CUT_PIECE))]))] };
  }

  /**
   * Whether a value whose JSON text (as JSON.stringify writes it) is `json` may hold a secret
   * anywhere `redactDeep` looks: false only when no form of a secret, nor where the text has a cut
   * mark any form's first or last few characters, occurs in it. Searching the text (native code)
   * costs a fraction of walking the value, and nearly every event holds no secret.
   */
  mayHold(json: string): boolean {
    const find = this.inJson;
    if (!find) return this.values.length > 0;
    for (const v of find.whole) if (json.includes(v)) return true;
    if (json.includes(CUT)) for (const v of find.ends) if (json.includes(v)) return true;
    return false;
  }

  redact(text: string): string {
    if (!this.pattern) return text;
    // With a few secrets, their forms are looked for with a plain search, faster than the pattern that finds none.
    const found = this.values.length > FEW_SECRETS || this.probes.some((v) => text.includes(v));
    return redactCutEnds(found ? text.replace(this.pattern, REDACTED) : text, this.forms);
  }

  /**
   * The value with every string (keys included) redacted. Plain objects and arrays with nothing to
   * redact come back as they are, not copied (most of what a run reports holds no secret, and
   * copying every event was a large share of the runner's own CPU); what changed is copied along its
   * path, and anything else (a class instance, a value with toJSON) is copied as JSON would write it.
   * `clean`: objects already returned unchanged by an earlier call (a trial, again inside its case),
   * not walked again. `json`: the value's JSON text when the caller has it (see `mayHold`).
   *
   * An object whose JSON text holds no secret is not walked at all. The one thing JSON leaves out
   * that a walk would redact is a key whose value is undefined or a function: no output writes it.
   */
  redactDeep<T>(value: T, clean?: { has(o: object): boolean }, json?: string): T {
    if (!this.pattern) return value;
    if (typeof value === 'object' && value !== null) {
      const text = json ?? jsonOf(value);
      if (text !== undefined && !this.mayHold(text)) return value;
    }
    return this.walk(value, new Set(), clean) as T;
  }

  private walk(input: unknown, path: Set<object>, clean: { has(o: object): boolean } | undefined): unknown {
    if (typeof input === 'string') return this.redact(input);
    if (typeof input !== 'object' || input === null) return input;
    if (clean?.has(input)) return input;
    // A copy must not point back into the unredacted original: a cycle becomes a marker.
    if (path.has(input)) return '[Circular]';
    const proto: unknown = Object.getPrototypeOf(input);
    const plain = Array.isArray(input) ? proto === Array.prototype : proto === Object.prototype || proto === null;
    // What JSON would write for a Date (or anything with toJSON) is what gets redacted.
    if (!plain || typeof (input as { toJSON?: unknown }).toJSON === 'function') return this.copy(input, path, clean);
    path.add(input);
    try {
      if (Array.isArray(input)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < input.length; i++) {
          const v: unknown = input[i];
          const w = this.walk(v, path, clean);
          if (out === undefined && !Object.is(w, v)) out = input.slice(0, i);
          out?.push(w);
        }
        return out ?? input;
      }
      const o = input as Record<string, unknown>;
      const keys = Object.keys(o);
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const v = o[k];
        const rk = this.redactKey(k);
        const w = this.walk(v, path, clean);
        if (out === undefined && (rk !== k || !Object.is(w, v))) {
          out = {};
          for (let j = 0; j < i; j++) out[this.redactKey(keys[j]!)] = o[keys[j]!];
        }
        if (out) out[rk] = w;
      }
      return out ?? input;
    } finally {
      path.delete(input);
    }
  }

  private redactKey(key: string): string {
    if (this.cleanKeys.has(key)) return key;
    const out = this.redact(key);
    if (out === key && this.cleanKeys.size < MAX_CLEAN_KEYS) this.cleanKeys.add(key);
    return out;
  }

  /** A plain copy of an object that is not plain JSON data (its toJSON's value, or its own enumerable fields), redacted. */
  private copy(input: object, path: Set<object>, clean: { has(o: object): boolean } | undefined): unknown {
    const value = typeof (input as { toJSON?: unknown }).toJSON === 'function' ? (input as { toJSON(): unknown }).toJSON() : input;
    if (typeof value !== 'object' || value === null) return this.walk(value, path, clean);
    if (path.has(value)) return '[Circular]';
    path.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.walk(v, path, clean));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redactKey(k)] = this.walk(v, path, clean);
      return out;
    } finally {
      path.delete(value);
    }
  }
}

/** The secret values a run knows from its environment: every variable whose name says it holds one, the named ones, and shaped tokens in any. */
export function envSecretValues(env: NodeJS.ProcessEnv, names: Iterable<string> = []): string[] {
  const out: string[] = [];
  for (const name of names) {
    const v = env[name];
    if (v) out.push(v);
  }
  for (const [name, v] of Object.entries(env)) {
    if (!v) continue;
    if (SECRET_ENV_NAME.test(name)) out.push(v);
    // A token of a known shape is a secret whatever its variable is called (`DATABASE_URL=…://u:pw@h`).
    else pushAll(out, shapedSecrets(v));
  }
  return out;
}

/** HTTP auth schemes whose credential follows a space (RFC 9110 `credentials`, and common API ones). */
const AUTH_SCHEME = /^\s*(?:Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key|Key|SSWS|OAuth|JWT|DPoP|Negotiate|NTLM|AWS4-HMAC-SHA256)\s+(\S(?:.*\S)?)\s*$/is;
/** A `name=value` parameter whose name says its value is a credential (cookies, Digest and OAuth params, signed requests). */
const SECRET_PARAM_NAME = /key|token|secret|pass|session|sid|sig|auth|cred|response|nonce/i;

/**
 * A secret value and the credentials inside it: what follows an auth scheme (and, for Basic, the
 * decoded `user:password` and the password), credential-named parameters (`session=…; theme=dark`
 * gives the session only) and every token of a known shape (secret-shapes.ts).
 */
export function secretParts(value: string): string[] {
  const out = [value, ...shapedSecrets(value)];
  const credential = AUTH_SCHEME.exec(value)?.[1];
  if (credential) {
    out.push(credential);
    if (/^\s*Basic\s/i.test(value) && /^[A-Za-z0-9+/]+=*$/.test(credential)) {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) out.push(decoded, decoded.slice(colon + 1));
    }
  }
  for (const param of value.split(/[\s,;&]+/)) {
    const eq = param.indexOf('=');
    if (eq > 0 && SECRET_PARAM_NAME.test(param.slice(0, eq))) out.push(param.slice(eq + 1).replace(/^"|"$/g, ''));
  }
  return out;
}

/** The mark every cut leaves (`quote`, previews, tails). */
const CUT = '…';
/** A piece of a secret shorter than this beside a cut mark is left: too short to say anything. */
const MIN_CUT_PIECE = 4;

/**
 * A message may quote a text cut short before it reached the redactor (an assertion quoting the
 * first 60 characters of a reply): the start of a secret just before a `…`, or its end just after
 * one, is redacted too, so a cut can never leave part of a key behind.
 */
function redactCutEnds(text: string, secrets: readonly string[]): string {
  if (!text.includes(CUT)) return text;
  const parts = text.split(CUT);
  for (let i = 0; i < parts.length; i++) {
    for (const s of secrets) {
      if (i < parts.length - 1) parts[i] = cutPiece(parts[i]!, s, 'end');
      if (i > 0) parts[i] = cutPiece(parts[i]!, s, 'start');
    }
  }
  return parts.join(CUT);
}

/**
 * The text with the longest proper prefix of `secret` at its end (or suffix at its start) redacted.
 * Only where the secret's first (last) few characters occur near the cut is it compared at all, so
 * the cost stays linear in the secret's length, even for a long one (a PEM key).
 */
function cutPiece(text: string, secret: string, side: 'end' | 'start'): string {
  const room = Math.min(secret.length - 1, text.length);
  if (room < MIN_CUT_PIECE) return text;
  if (side === 'end') {
    const from = text.length - room;
    const head = secret.slice(0, MIN_CUT_PIECE);
    // The earliest start gives the longest piece.
    for (let p = text.indexOf(head, from); p >= 0; p = text.indexOf(head, p + 1)) {
      if (secret.startsWith(text.slice(p))) return text.slice(0, p) + REDACTED;
    }
    return text;
  }
  const tail = secret.slice(-MIN_CUT_PIECE);
  // The latest end gives the longest piece.
  for (let q = text.lastIndexOf(tail, room - MIN_CUT_PIECE); q >= 0; q = q === 0 ? -1 : text.lastIndexOf(tail, q - 1)) {
    const k = q + MIN_CUT_PIECE;
    if (secret.endsWith(text.slice(0, k))) return REDACTED + text.slice(k);
  }
  return text;
}

/** JSON.stringify's text, or undefined for what it refuses (a cycle, a BigInt): such a value is walked. */
function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
