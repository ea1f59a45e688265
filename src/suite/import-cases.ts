import type { RecordedRun } from '../adapters/otel-recorded-run.js';
import { toolCallsOf } from '../core/agent-run.js';
import type { CaseResult, Results, TrialResult } from '../core/results-schema.js';
import { stableHash } from '../core/stable-hash.js';
import { caseKey } from '../core/matrix.js';

/** One imported case: a recorded run's input, its reply as the reference, and a trajectory skeleton. */
export interface ImportedCase {
  id: string;
  input: string;
  reference: string;
  assert: Array<Record<string, unknown>>;
}

/**
 * The cases of recorded runs, in order: the id is a slug of the input and a short hash of input and
 * reply, so importing the same runs again gives the same ids; a run equal to an earlier one in both
 * is one case (counted in `duplicates`). The trajectory skeleton: `toolOrder` of the calls made, a
 * `notCalledTool` for each tool the agent had and did not use, `usedNoTools` when it called none.
 */
export function casesFromRuns(runs: readonly RecordedRun[]): { cases: ImportedCase[]; duplicates: number } {
  const cases = new Map<string, ImportedCase>();
  let duplicates = 0;
  for (const run of runs) {
    const id = caseId(run);
    if (cases.has(id)) {
      duplicates++;
      continue;
    }
    const called = new Set(run.calls);
    const assert: ImportedCase['assert'] = run.calls.length > 0 ? [{ type: 'toolOrder', tools: run.calls }] : run.tools.length === 0 ? [{ type: 'usedNoTools' }] : [];
    for (const tool of run.tools) if (!called.has(tool)) assert.push({ type: 'notCalledTool', tool });
    cases.set(id, { id, input: run.input, reference: run.reply, assert });
  }
  return { cases: [...cases.values()], duplicates };
}

/** `where-is-order-a1050-3f9c2a1b`: the input's first words and a hash of input and reply. */
function caseId(run: RecordedRun): string {
  const words = run.input.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const slug = words.slice(0, 4).join('-').slice(0, 32).replace(/-+$/, '');
  return `${slug || 'run'}-${stableHash({ input: run.input, reply: run.reply }, 8)}`;
}

/** A recorded case left out of an import because it was a conversation, not one input and its reply. */
export interface SkippedConversation {
  /** `suite/id` (with its matrix values) and where its eval file defines it. */
  key: string;
  at: string;
  /** A simulated user held it (its goal was the case's `input`), or it had several turns. */
  simulated: boolean;
}

/**
 * The runs of an agent-evals results file: per case that asked one `input`, its first trial that
 * finished (a passing one when there is one). A results file does not list an agent's tools, so the
 * tools of a case's suite are those any of its cases called. Cases of several messages or turns are
 * counted in `skipped` (they are not one input). A conversation recorded on a case of one `input` (a
 * simulated user's, whose goal is that input; a check's `t.send()`) is not one input and its reply
 * either: it is listed in `conversations`, not made a one-turn case that asks the goal.
 */
export function runsFromResults(results: Results): { runs: RecordedRun[]; skipped: number; conversations: SkippedConversation[] } {
  const suiteTools = new Map<string, Set<string>>();
  for (const c of results.cases) {
    const tools = suiteTools.get(c.suite) ?? new Set<string>();
    for (const t of c.trials) for (const call of callsOf(t)) tools.add(call);
    suiteTools.set(c.suite, tools);
  }
  const runs: RecordedRun[] = [];
  const conversations: SkippedConversation[] = [];
  let skipped = 0;
  for (const c of results.cases) {
    const trial = kept(c);
    if (c.input === undefined || !trial) {
      skipped++;
      continue;
    }
    const simulated = c.trials.some((t) => t.simulatedUser !== undefined || t.usage.user !== undefined);
    if (simulated || (trial.turns?.length ?? 0) > 1) {
      conversations.push({ key: caseKey(c), at: `${c.file}${c.line !== null ? `:${c.line}` : ''}`, simulated });
      continue;
    }
    runs.push({ input: c.input, reply: trial.reply, calls: callsOf(trial), tools: [...(suiteTools.get(c.suite) ?? [])] });
  }
  return { runs, skipped, conversations };
}

const finished = (t: TrialResult) => !t.interrupted && t.error === undefined;
const kept = (c: CaseResult) => c.trials.find((t) => finished(t) && t.verdict === 'passed') ?? c.trials.find(finished);
const callsOf = (t: TrialResult) => toolCallsOf({ ...t.trace, reply: t.reply }).map((call) => call.name);
