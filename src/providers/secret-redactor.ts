/** Values shorter than this are not treated as secrets: redacting them would blank common words. */
export const MIN_SECRET_LENGTH = 8;

/** Environment variable names whose values are secrets whatever else the run knows. */
export const SECRET_ENV_NAME = /(_KEY|_TOKEN|_SECRET)$|PASSWORD/i;

export const REDACTED = '[redacted]';

/**
 * Replaces the actual values of the run's secrets (API keys, header values, …) wherever they occur
 * in text. Built once per run and applied at the output edges, before anything is cut short, so a
 * truncation can never leave part of a key behind.
 */
export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  readonly values: readonly string[];

  constructor(values: Iterable<string>) {
    // Longest first, so a secret that contains another is replaced whole.
    this.values = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
    // An alternation of escaped literals: no quantifier, so matching stays linear in the text.
    this.pattern = this.values.length ? new RegExp(this.values.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }

  /** A copy of a JSON-like value with every string (keys included) redacted. */
  redactDeep<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value, new Set()) as T;
  }

  private walk(input: unknown, path: Set<object>): unknown {
    // What JSON would write for a Date (or anything with toJSON) is what gets redacted.
    const value = typeof input === 'object' && input !== null && typeof (input as { toJSON?: unknown }).toJSON === 'function' ? (input as { toJSON(): unknown }).toJSON() : input;
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    // A copy must not point back into the unredacted original: a cycle becomes a marker.
    if (path.has(value)) return '[Circular]';
    path.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.walk(v, path));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redact(k)] = this.walk(v, path);
      return out;
    } finally {
      path.delete(value);
    }
  }
}

/** The secret values a run knows from its environment: every variable whose name says it holds one, plus the named ones. */
export function envSecretValues(env: NodeJS.ProcessEnv, names: Iterable<string> = []): string[] {
  const out: string[] = [];
  for (const name of names) {
    const v = env[name];
    if (v) out.push(v);
  }
  for (const [name, v] of Object.entries(env)) if (v && SECRET_ENV_NAME.test(name)) out.push(v);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
