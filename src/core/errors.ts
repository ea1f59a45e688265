import { safeJson } from './safe-json.js';

/**
 * A mistake in the user's input (files, config, flags). The CLI prints its message without a
 * stack trace and exits 2. `file`/`line`/`field` let the message point at the exact spot.
 */
export class UserError extends Error {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;

  constructor(message: string, where: { file?: string; line?: number; field?: string } = {}) {
    super(formatWhere(where) + message);
    this.name = 'UserError';
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

function formatWhere(where: { file?: string; line?: number; field?: string }): string {
  const place = where.file ? `${where.file}${where.line ? `:${where.line}` : ''}: ` : '';
  return place + (where.field ? `${where.field}: ` : '');
}

/** Several user errors found in one pass, reported together so a user fixes them at once. */
export class UserErrors extends UserError {
  readonly errors: UserError[];

  constructor(errors: UserError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.errors = errors;
  }
}

/** What was thrown, as text: an Error's message, anything else as JSON (`{"code":1}`, not `[object Object]`). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null) return safeJson(err) ?? String(err);
  return String(err);
}
