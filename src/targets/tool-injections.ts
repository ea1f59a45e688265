import type { ToolResultsOutcome } from '../core/results-schema.js';
import type { ToolResultInjection } from './tool-results-schema.js';

/** A trial's injections and how far it got, as data: what crosses to an isolated target's worker and back. */
export interface InjectionState {
  entries: ToolResultInjection[];
  progress: InjectionProgress;
}

/** Each tool's calls so far, and the entries served (by index). */
export interface InjectionProgress {
  calls: Array<[string, number]>;
  served: number[];
}

/**
 * One trial's `toolResults`: counts each tool's calls over the whole trial (every turn of its
 * conversation shares it) and hands the entry for the call it has reached, if any.
 */
export class TrialInjections {
  readonly #calls = new Map<string, number>();
  readonly #served = new Set<number>();

  constructor(private readonly entries: readonly ToolResultInjection[]) {}

  /** The entry that answers this call of `name` in place of the tool, or undefined when the tool runs. */
  take(name: string): ToolResultInjection | undefined {
    const n = (this.#calls.get(name) ?? 0) + 1;
    this.#calls.set(name, n);
    const i = this.entries.findIndex((e) => e.tool === name && (e.call ?? 1) === n);
    if (i < 0) return undefined;
    this.#served.add(i);
    return this.entries[i];
  }

  /** What the trial's result keeps: how many calls got an injected result, and the entries no call reached. */
  outcome(): ToolResultsOutcome {
    const unused = this.entries.filter((_, i) => !this.#served.has(i)).map((e) => ({ tool: e.tool, call: e.call ?? 1 }));
    return { injected: this.#served.size, ...(unused.length > 0 ? { unused } : {}) };
  }

  progress(): InjectionProgress {
    return { calls: [...this.#calls], served: [...this.#served] };
  }

  state(): InjectionState {
    return { entries: [...this.entries], progress: this.progress() };
  }

  /** Injections where `state` left off (a worker's copy). */
  static from(state: InjectionState): TrialInjections {
    const injections = new TrialInjections(state.entries);
    injections.adopt(state.progress);
    return injections;
  }

  /** Takes on how far a copy got (the worker's, after its call). */
  adopt(progress: InjectionProgress): void {
    this.#calls.clear();
    for (const [name, n] of progress.calls) this.#calls.set(name, n);
    this.#served.clear();
    for (const i of progress.served) this.#served.add(i);
  }
}
