import type { ReporterOptions } from './descriptor.js';
import type { Reporter } from './reporter.js';
import type { HookBound } from './hook-bound.js';

/** The version of the reporter module interface this agent-evals speaks. */
export const REPORTER_API_VERSION = 1;

/**
 * A reporter of your own, loaded with `--reporter ./my-reporter.mjs[=path]` or config `reporters`:
 * the module's default export. `create` is called once per run, before the first event, and
 * returns the reporter (its hooks are described on `Reporter`); it may be async.
 *
 * @example
 * export default defineReporter({
 *   apiVersion: 1,
 *   create: ({ path }) => ({ onCaseEnd: (result) => console.log(result.id, result.verdict) }),
 * });
 */
export interface ReporterModule {
  /** Must be 1: a later agent-evals that changes the interface refuses a module written for another. */
  apiVersion: typeof REPORTER_API_VERSION;
  create(options: ReporterOptions): Reporter | Promise<Reporter>;
}

/** Types a reporter module's default export; returns it as it is. */
export function defineReporter(module: ReporterModule): ReporterModule {
  return module;
}

const HOOKS = ['onBegin', 'onTrialEnd', 'onCaseEnd', 'onWarning', 'onEnd', 'written'] as const;

/** Why a module's export is not a reporter module (undefined: it is). */
export function reporterModuleProblem(value: unknown): string | undefined {
  const shape = 'its default export must be { apiVersion: 1, create(options) } (see docs/guide/extending.md)';
  if (typeof value !== 'object' || value === null) return shape;
  const { apiVersion, create } = value as Record<string, unknown>;
  if (apiVersion === undefined || typeof create !== 'function') return shape;
  if (apiVersion !== REPORTER_API_VERSION) return `it is written for reporter apiVersion ${JSON.stringify(apiVersion)}; this agent-evals speaks apiVersion ${REPORTER_API_VERSION}`;
  return undefined;
}

/** Why what `create` returned is not a reporter (undefined: it is). */
export function createdReporterProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `create() returned ${value === null ? 'null' : typeof value}, not a reporter object`;
  const bad = HOOKS.find((h) => (value as Record<string, unknown>)[h] !== undefined && typeof (value as Record<string, unknown>)[h] !== 'function');
  if (bad) return `create() returned a reporter whose ${bad} is not a function`;
  const unknown = unknownHook(value);
  return unknown ? `create() returned a reporter with ${unknown}, which is no hook of apiVersion ${REPORTER_API_VERSION} and would never be called (the hooks: ${HOOKS.join(', ')})` : undefined;
}

/**
 * A method named like a hook (`on` and a capital) that is none: a misspelt `onCaseEnded` would
 * otherwise be skipped without a word and its reporter write nothing. Own and class methods.
 */
function unknownHook(value: object): string | undefined {
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    const name = Object.getOwnPropertyNames(o).find((k) => /^on[A-Z]/.test(k) && !(HOOKS as readonly string[]).includes(k) && typeof (value as Record<string, unknown>)[k] === 'function');
    if (name) return name;
  }
  return undefined;
}

/**
 * The reporter under `name`, its hooks bound: a class instance's methods live on its prototype,
 * which spreading would lose. With `bound` (a reporter module's), each hook's promise is bounded too.
 */
export function namedReporter(r: Reporter, name: string, bound?: HookBound): Reporter {
  const out: { -readonly [K in keyof Reporter]: Reporter[K] } = { name };
  for (const hook of HOOKS) {
    const fn = r[hook] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn !== 'function') continue;
    (out as Record<string, unknown>)[hook] = bound ? (...args: unknown[]) => bound.settle(fn.apply(r, args)) : fn.bind(r);
  }
  return out;
}
