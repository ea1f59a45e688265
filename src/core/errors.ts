import { safeJson } from './safe-json.js';
import type { AgentRun } from './agent-run.js';
import type { Usage } from './usage.js';

/**
 * What a failed call had already spent: the tokens it paid for and the partial run it made (a
 * target's steps so far, an agent judge's own run). The one way partial spend travels on an error.
 */
export interface Spent {
  usage?: Usage;
  run?: AgentRun;
}

/**
 * The base of every error this tool raises. Errors are told apart by class (`instanceof`), never by
 * message text or a code string; `spent` says what the failed work had already used.
 */
export class AgentEvalsError extends Error {
  spent: Spent | undefined;

  constructor(message: string, opts: { spent?: Spent; cause?: unknown } = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = new.target.name;
    this.spent = opts.spent;
  }
}

/** What a failed call had spent, if it said (only our errors carry it). */
export function spentOf(err: unknown): Spent {
  return err instanceof AgentEvalsError ? (err.spent ?? {}) : {};
}

/**
 * Records on `err` the partial run a failed call had made, keeping its usage. An error of ours is
 * marked in place (a deadline's error reaches whoever catches it with the run on it); anything
 * else thrown (a user's function target, say) is wrapped with the same message.
 */
export function withSpent(err: unknown, spent: Spent): AgentEvalsError {
  if (err instanceof AgentEvalsError) {
    err.spent = { ...err.spent, ...spent };
    return err;
  }
  return new AgentEvalsError(errorMessage(err), { spent, cause: err });
}

/**
 * A provider is misconfigured (bad model spec, missing API key). Raised before any call is made;
 * the CLI reports it as a configuration error (exit 2).
 */
export class ProviderConfigError extends AgentEvalsError {}

export type ProviderErrorKind = 'auth' | 'permission' | 'bad_request' | 'not_found' | 'rate_limit' | 'server' | 'timeout' | 'connection' | 'malformed' | 'aborted' | 'unknown';

/**
 * A call failed after the SDK's own retries. Carries no reference to the SDK error: its body and
 * headers may echo credentials, so only the scrubbed message and a few facts are kept.
 */
export class ProviderError extends AgentEvalsError {
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(provider: string, kind: ProviderErrorKind, message: string, status?: number, requestId?: string) {
    super(message);
    this.provider = provider;
    this.kind = kind;
    this.status = status;
    this.requestId = requestId;
  }
}

/** A response body went past its byte cap; the rest was not read. */
export class ResponseTooLargeError extends AgentEvalsError {
  constructor(
    readonly maxBytes: number,
    message: string,
  ) {
    super(message);
  }
}

/** A `withTimeout` deadline passed; `ms` says which one (several may be nested). */
export class TimeoutError extends AgentEvalsError {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** A module (config, TS eval file) did not finish loading within its time limit. */
export class LoadTimeoutError extends AgentEvalsError {}

/** A redirect an HTTP target does not follow: to another origin (never given its headers), or past the hop limit. */
export class RedirectRefusedError extends AgentEvalsError {}

/**
 * Why a file a user named was not read (core/regular-file.ts): `missing`, `not-regular` (a device,
 * FIFO, socket or directory, after symlinks), `too-large` (past the reader's bound; `size` is what
 * stat said or how far the read got), or `unreadable` (any other error: `code` is its errno name).
 * The message says what the file is, without naming it: the caller knows how to name it.
 */
export class FileReadError extends AgentEvalsError {
  constructor(
    readonly problem: 'missing' | 'not-regular' | 'too-large' | 'unreadable',
    message: string,
    readonly size?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The run was stopped (Ctrl-C after the grace period) while the work was in flight. */
export class InterruptedError extends AgentEvalsError {
  constructor() {
    super('interrupted');
  }
}

/**
 * Why a judgment failed: `response` the judge's answer broke the response contract, `protocol` an
 * agent judge broke its protocol (or hit a guard), `criterion` the assertion lacks what its
 * criterion needs, `unavailable` the judge could not be built, `call` anything else the call threw.
 */
export type JudgeErrorKind = 'response' | 'protocol' | 'criterion' | 'unavailable' | 'call';

/** A judgment that produced no score; what it spent (usage, an agent judge's run) is in `spent`. */
export class JudgeError extends AgentEvalsError {
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    opts: { spent?: Spent; cause?: unknown } = {},
  ) {
    super(message, opts);
  }
}

/** A judge's answer that does not satisfy the response contract; the raw text is kept. */
export class JudgeResponseError extends JudgeError {
  constructor(
    message: string,
    readonly raw: string,
    usage?: Usage,
  ) {
    super('response', `judge response invalid: ${message}`, usage ? { spent: { usage } } : {});
  }
}

/** The judge agent broke the protocol (no submission, a bad or second one, a guard hit). */
export class JudgeProtocolError extends JudgeError {
  constructor(message: string, usage?: Usage, run?: AgentRun) {
    super('protocol', message, { spent: { ...(usage ? { usage } : {}), ...(run ? { run } : {}) } });
  }
}

/** A spec's missing piece (a reference, say) is a usage error in the eval file. */
export class CriterionError extends JudgeError {
  constructor(message: string) {
    super('criterion', message);
  }
}

/**
 * A mistake in the user's input (files, config, flags). The CLI prints its message without a
 * stack trace and exits 2. `file`/`line`/`field` let the message point at the exact spot.
 */
export class UserError extends AgentEvalsError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;

  constructor(message: string, where: { file?: string; line?: number; field?: string } = {}) {
    super(formatWhere(where) + message);
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

function formatWhere(where: { file?: string; line?: number; field?: string }): string {
  const place = where.file ? `${where.file}${where.line ? `:${where.line}` : ''}: ` : '';
  return place + (where.field ? `${where.field}: ` : '');
}

/**
 * An eval run from a test file (`evaluate(...).run()`) did not pass: `assertPasses()` throws it,
 * its message listing every failed assertion with its score and the judge's reason.
 */
export class EvalFailedError extends AgentEvalsError {
  /** One line per distinct failure (an assertion, a trial error, a run gate). */
  readonly failures: string[];

  constructor(message: string, failures: string[]) {
    super(message);
    this.failures = failures;
  }
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

/** What was thrown, as an Error: a thrown non-Error (`throw { code: 42 }`) keeps its content in the message, not `[object Object]`. */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(errorMessage(err), { cause: err });
}
