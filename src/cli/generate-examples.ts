import { resolve } from 'node:path';
import { toolCallsOf } from '../core/agent-run.js';
import { cutText } from '../core/cut-text.js';
import { stableHash } from '../core/stable-hash.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { planDefaults } from '../config/plan-defaults.js';
import type { ExampleInput } from '../generate/index.js';
import { loadCases } from '../suite/plan.js';
import { readTraces } from '../suite/read-traces.js';

/** Most examples the generator is shown, and the longest each may be: enough for style, a bounded prompt. */
const MAX_EXAMPLES = 20;
const MAX_EXAMPLE_CHARS = 500;

/** A `--from` file holding eval cases (else it holds recorded traces). */
const EVAL_FILE = /\.(ya?ml|[cm]?ts|[cm]?js)$/i;

export interface GenerateSources {
  /** What the generator is shown: at most MAX_EXAMPLES, a seeded sample when there are more. */
  examples: ExampleInput[];
  /** Every existing case's input: a draft repeating one is dropped. */
  existingInputs: string[];
  /** Inputs read from traces and from cases, for the terminal. */
  traces: number;
  cases: number;
}

/**
 * The inputs of `--from` files: eval files (YAML or TS, loaded and checked as `run` plans them) give
 * their cases' inputs, as examples and to avoid duplicates; anything else is recorded traces
 * (`readTraces`: a bad file is exit 2 naming it), whose inputs and called tools are examples only.
 */
export async function readGenerateSources(paths: readonly string[], config: ResolvedConfig, cwd: string, seed: number): Promise<GenerateSources> {
  const evalFiles = paths.filter((p) => EVAL_FILE.test(p)).map((p) => resolve(cwd, p));
  const traceFiles = paths.filter((p) => !EVAL_FILE.test(p));
  const cases = evalFiles.length ? await loadCases(evalFiles, cwd, planDefaults(config)) : [];
  const existingInputs = [...new Set(cases.map((c) => c.input).filter((i) => i.trim() !== ''))];
  const traces = traceFiles.length ? (await readTraces(traceFiles, { cwd })).traces : [];
  const fromTraces: ExampleInput[] = traces.flatMap((t) => {
    const input = t.input ?? t.messages?.filter((m) => m.role === 'user').at(-1)?.content;
    if (!input?.trim()) return [];
    const toolsCalled = [...new Set(toolCallsOf(t.run).map((c) => c.name))];
    return [{ input, from: 'trace' as const, ...(toolsCalled.length ? { toolsCalled } : {}) }];
  });
  const all: ExampleInput[] = [...existingInputs.map((input) => ({ input, from: 'case' as const })), ...fromTraces];
  return { examples: sample(all, seed).map((e) => ({ ...e, input: cutText(e.input, MAX_EXAMPLE_CHARS) })), existingInputs, traces: fromTraces.length, cases: existingInputs.length };
}

/** At most MAX_EXAMPLES, in their order: those whose hash with the seed is lowest (the same seed and files, the same examples). */
function sample(all: readonly ExampleInput[], seed: number): ExampleInput[] {
  if (all.length <= MAX_EXAMPLES) return [...all];
  const ranked = all.map((e, i) => ({ i, rank: stableHash({ seed, input: e.input, i }) })).sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.i - b.i));
  return ranked
    .slice(0, MAX_EXAMPLES)
    .map((r) => r.i)
    .sort((a, b) => a - b)
    .map((i) => all[i]!);
}
