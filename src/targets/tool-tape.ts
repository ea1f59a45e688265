import { stableHash } from '../core/stable-hash.js';
import type { TapeDivergence } from '../core/results-schema.js';

export type { TapeDivergence };

/** One recorded tool call: what a replay hands back in place of running the tool. */
export interface TapedCall {
  name: string;
  args: unknown;
  result: unknown;
  isError: boolean;
}

/**
 * One trial's tape: the recorded calls in recorded order. Each tool call of the trial is matched to
 * the recorded call at its own step (same name, same arguments as canonical JSON); the first that
 * does not match is the divergence, and from there on every call runs live (the order the replay
 * relied on is broken).
 */
/** A tape and how far a trial got on it, as data: what crosses to an isolated target's worker and back. */
export interface TapeState {
  calls: TapedCall[];
  strict: boolean;
  step: number;
  replayed: number;
  diverged?: TapeDivergence;
}

/** How far a trial got on its tape (what a worker hands back). */
export type TapeProgress = Pick<TapeState, 'step' | 'replayed' | 'diverged'>;

export class TrialTape {
  #step = 0;
  replayed = 0;
  diverged: TapeDivergence | undefined;

  /** Tool calls the trial made so far. */
  get steps(): number {
    return this.#step;
  }

  constructor(
    private readonly calls: readonly TapedCall[],
    readonly strict: boolean,
  ) {}

  progress(): TapeProgress {
    return { step: this.#step, replayed: this.replayed, ...(this.diverged ? { diverged: this.diverged } : {}) };
  }

  state(): TapeState {
    return { calls: [...this.calls], strict: this.strict, ...this.progress() };
  }

  /** A tape where `state` left off (a worker's copy). */
  static from(state: TapeState): TrialTape {
    const tape = new TrialTape(state.calls, state.strict);
    tape.adopt(state);
    return tape;
  }

  /** Takes on how far a copy of this tape got (the worker's, after its call). */
  adopt(state: TapeProgress): void {
    this.#step = state.step;
    this.replayed = state.replayed;
    this.diverged = state.diverged;
  }

  /** The recorded call that stands for this one, or undefined when it must run live. */
  take(name: string, args: unknown): TapedCall | undefined {
    const hit = this.#match(name, args);
    if (hit) this.replayed += 1;
    return hit;
  }

  /** A call a case's `toolResults` answered: it keeps its step on the tape (and may leave it), not replayed from it. */
  pass(name: string, args: unknown): void {
    this.#match(name, args);
  }

  #match(name: string, args: unknown): TapedCall | undefined {
    const step = ++this.#step;
    if (this.diverged) return undefined;
    const want = this.calls[step - 1];
    if (want && want.name === name && sameArgs(want.args, args)) return want;
    const where = { step, tool: name, reason: !want ? 'beyond' : want.name !== name ? 'tool' : 'arguments', ...(want ? { expected: want.name } : {}) } as const;
    this.diverged = { ...where, message: divergenceText(where) };
    return undefined;
  }
}

/** Arguments as canonical JSON (keys sorted, undefined dropped): a reordered object is the same call. */
function sameArgs(a: unknown, b: unknown): boolean {
  return a === b || stableHash(a ?? null, 64) === stableHash(b ?? null, 64);
}

/** `diverged from the tape at step 2: search called with other arguments than recorded` */
function divergenceText(d: Omit<TapeDivergence, 'message'>): string {
  const why =
    d.reason === 'arguments'
      ? `${d.tool} called with other arguments than recorded`
      : d.reason === 'tool'
        ? `${d.tool} called where the tape has ${d.expected ?? 'another tool'}`
        : d.step === 1
          ? `${d.tool} called, and the tape holds no call for this trial`
          : `${d.tool} called after the tape's last call`;
  return `diverged from the tape at step ${d.step}: ${why}`;
}
