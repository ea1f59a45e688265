import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { RE2JS } from 're2js';
import { translateToRe2 } from './re2-translate.js';

/**
 * RE2, loaded when the first pattern compiles (263 KB of code: a command that only lists cases, or a
 * config that only imports the public API, never pays for it). Its CommonJS build, because the load
 * must be synchronous: `safeRegex` is (Ajv calls it).
 */
let re2js: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  re2js ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return re2js;
}

/**
 * User patterns run where they cannot hang the run: in RE2 (linear time) when the pattern fits
 * it, else in the JS engine inside a worker thread that is terminated when it exceeds its time
 * budget. The wait is synchronous (Atomics.wait), so Ajv's `pattern` can use it too; the event
 * loop is blocked for at most the budget, so Ctrl-C is handled right after.
 */

export const REGEX_BUDGET_MS = 1000;
/** Starting a worker is not the pattern's time; this only guards against a worker that never starts. */
const WORKER_START_LIMIT_MS = 30_000;

export interface RegexMatch {
  /** UTF-16 index, as `RegExp#exec` gives it. */
  index: number;
  text: string;
}

export type RegexResult = { ok: true; match: RegexMatch | null } | { ok: false; message: string };

export interface SafeRegex {
  /** Which engine runs this pattern on `input`: RE2, or the JS engine under the time budget. */
  engineFor(input: string): 're2' | 'budgeted';
  exec(input: string): RegexResult;
  toString(): string;
}

const cache = new Map<string, SafeRegex>();

/** Throws a SyntaxError for a pattern or flags JS rejects, as `new RegExp` does. */
export function safeRegex(pattern: string, flags = ''): SafeRegex {
  const key = `${flags}/${pattern}`;
  let known = cache.get(key);
  if (!known) {
    known = build(pattern, flags);
    cache.set(key, known);
  }
  return known;
}

function build(pattern: string, flags: string): SafeRegex {
  new RegExp(pattern, flags); // the JS syntax is the contract; compiling is linear
  const text = `/${pattern}/${flags}`;
  const re2 = compileRe2(pattern, flags);
  const engineFor = (input: string) => (re2 && !(re2.multilineAnchors && /[\r\u2028\u2029]/.test(input)) ? 're2' : 'budgeted');
  return {
    engineFor,
    exec: (input) => (re2 && engineFor(input) === 're2' ? execRe2(re2.re, input) : execBudgeted(pattern, flags, input)),
    toString: () => text,
  };
}

function compileRe2(pattern: string, flags: string): { re: RE2JS; multilineAnchors: boolean } | undefined {
  const t = translateToRe2(pattern, flags);
  if (!t) return undefined;
  try {
    return { re: re2().compile(t.source), multilineAnchors: t.multilineAnchors };
  } catch {
    return undefined; // beyond RE2 (a repeat over 1000, a long property name): the JS engine decides
  }
}

function execRe2(re: RE2JS, input: string): RegexResult {
  const m = re.matcher(input);
  if (!m.find()) return { ok: true, match: null };
  return { ok: true, match: { index: m.start(), text: m.group() ?? '' } };
}

// Plain CommonJS run by `eval`, so it needs no file next to the compiled module (tests run the
// sources). State: [0] 0 = sent, 1 = running, 2 = done; [1] matched (1), no match (0), error (-1);
// [2] index; [3] length.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const state = new Int32Array(workerData.shared);
parentPort.on('message', ({ pattern, flags, input }) => {
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  try {
    const m = new RegExp(pattern, flags).exec(input);
    state[1] = m ? 1 : 0;
    state[2] = m ? m.index : 0;
    state[3] = m ? m[0].length : 0;
  } catch {
    state[1] = -1;
  }
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
});
`;

/** One worker, kept between matches (starting one costs tens of ms) and replaced after a timeout. */
let current: { worker: Worker; state: Int32Array } | undefined;

function regexWorker(): { worker: Worker; state: Int32Array } {
  if (!current) {
    const shared = new SharedArrayBuffer(16);
    // No inherited options: `--input-type=module` (node -e, stdin) would make the source a module, without `require`.
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { shared } });
    // Never the reason the process stays up.
    worker.unref();
    current = { worker, state: new Int32Array(shared) };
  }
  return current;
}

function execBudgeted(pattern: string, flags: string, input: string): RegexResult {
  const { worker, state } = regexWorker();
  Atomics.store(state, 0, 0);
  worker.postMessage({ pattern, flags, input });
  Atomics.wait(state, 0, 0, WORKER_START_LIMIT_MS);
  if (Atomics.load(state, 0) === 0) {
    stopWorker();
    return { ok: false, message: `regex /${pattern}/${flags}: its worker thread did not start` };
  }
  Atomics.wait(state, 0, 1, REGEX_BUDGET_MS);
  if (Atomics.load(state, 0) !== 2) {
    stopWorker();
    return {
      ok: false,
      message: `regex /${pattern}/${flags} took longer than ${REGEX_BUDGET_MS} ms; patterns with backreferences or lookaround run with a time budget`,
    };
  }
  if (state[1] === -1) return { ok: false, message: `regex /${pattern}/${flags} failed in the JS engine (too complex)` };
  if (state[1] === 0) return { ok: true, match: null };
  const index = state[2]!;
  return { ok: true, match: { index, text: input.slice(index, index + state[3]!) } };
}

function stopWorker(): void {
  if (current) void current.worker.terminate();
  current = undefined;
}
