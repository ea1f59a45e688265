import { relative } from 'node:path';
import { toolCallsOf } from '../../core/agent-run.js';
import { UserError } from '../../core/errors.js';
import { caseKey } from '../../core/matrix.js';
import type { McpListedTools } from '../../core/mcp-listed-tools.js';
import type { Results, TrialResult } from '../../core/results-schema.js';
import { rawTrialsPath, readRawTrials, type RawTrial } from '../../report/raw-trials.js';
import type { PlannedCase } from '../../suite/plan.js';
import { TrialTape, type TapedCall } from '../../targets/tool-tape.js';

/** A recording's tool calls: by case key, then by trial index, in the order they were made. */
export type RecordedTape = Map<string, Map<number, TapedCall[]>>;

/** `--replay-tools <results.json>` (`strict`: `--replay-tools-strict`): the tape and how it is used. */
export interface ToolTape {
  /** The tape of a case's trial (its run and every turn of its conversation share it): its tool calls are answered from it where they match. */
  tapeFor(c: PlannedCase, index: number): TrialTape;
  /** The trial as the results keep it: what the tape replayed and where the trial left it; under `strict`, leaving it fails the trial. */
  settle(c: PlannedCase, trial: TrialResult): TrialResult;
  /** The tools the recorded run's MCP servers listed: offered again without starting the servers. */
  mcpTools?: McpListedTools;
}

/**
 * The tape a recorded run left: under `trace: full` its results hold the tool calls in clear; under
 * `safe` they hold digests, and the calls are read from the run folder the results name
 * (`<outputDir>/runs/<run id>/raw-trials.jsonl`, looked for in each of `dirs`). A folder that is gone
 * (pruned by `keepRuns`, another machine's results) is bad input naming the file.
 */
export async function readToolTape(recorded: Results, where: { file: string; cwd: string; flag: string; dirs: string[] }): Promise<RecordedTape> {
  if (recorded.run.trace !== 'safe') return new Map(recorded.cases.map((c) => [caseKey(c), tapeOfTrials(c.trials)]));
  for (const dir of where.dirs) {
    const raw = await readRawTrials(dir, recorded.run.id);
    if (!raw) continue;
    // A case the file lacks would have an empty tape and run every tool live (a refund issued again):
    // an empty, garbled or foreign file is refused before any target runs.
    const ran = recorded.cases.filter((c) => c.trials.length > 0);
    const missing = ran.filter((c) => !raw.has(caseKey(c)));
    if (missing.length > 0) {
      const path = rawTrialsPath(dir, recorded.run.id);
      throw new UserError(
        `not the tool tape of run ${recorded.run.id}: it holds no readable line for ${missing.length} of its ${ran.length} case${ran.length === 1 ? '' : 's'} that ran (first: ${caseKey(missing[0]!)}), so their tools would run live. Record the run again`,
        { file: relative(where.cwd, path) || path, field: where.flag },
      );
    }
    return new Map([...raw].map(([key, c]) => [key, tapeOfTrials(c.trials)]));
  }
  const looked = where.dirs.map((d) => relative(where.cwd, rawTrialsPath(d, recorded.run.id)) || rawTrialsPath(d, recorded.run.id)).join(' or ');
  throw new UserError(
    `the tool tape of run ${recorded.run.id} is gone: its results hold tool data as digests (trace: safe), and the run folder that keeps the calls (${looked}) is not there (pruned by keepRuns, or results from another machine). Record the run again, or keep its folder`,
    { file: relative(where.cwd, where.file) || where.file, field: where.flag },
  );
}

function tapeOfTrials(trials: ReadonlyArray<Pick<RawTrial, 'index' | 'trace'>>): Map<number, TapedCall[]> {
  return new Map(trials.map((t) => [t.index, toolCallsOf({ reply: '', ...t.trace }).map((call) => ({ name: call.name, args: call.args, result: call.result, isError: call.isError === true }))]));
}

/**
 * Each trial plays the recorded trial of its own index, or (a recording with fewer trials) the case's
 * first recorded one; a case the recording lacks has an empty tape, so its first tool call diverges.
 */
export function toolTape(recorded: RecordedTape, strict: boolean, mcpTools?: McpListedTools): ToolTape {
  // One tape per running trial: its run and every turn of its conversation share it.
  const running = new Map<string, TrialTape>();
  const slot = (c: PlannedCase, index: number) => `${c.key}\u0000${index}`;
  const tapeOf = (c: PlannedCase, index: number): TrialTape => {
    const key = slot(c, index);
    let tape = running.get(key);
    if (!tape) {
      const trials = recorded.get(c.key);
      const first = trials ? [...trials.keys()].sort((a, b) => a - b)[0] : undefined;
      tape = new TrialTape(trials?.get(index) ?? (first !== undefined ? trials!.get(first)! : []), strict);
      running.set(key, tape);
    }
    return tape;
  };
  return {
    ...(mcpTools ? { mcpTools } : {}),
    tapeFor: tapeOf,
    settle(c, trial) {
      const key = slot(c, trial.index);
      const tape = running.get(key);
      running.delete(key);
      if (!tape || tape.steps === 0) return trial;
      const { diverged } = tape;
      const settled: TrialResult = { ...trial, toolTape: { replayed: tape.replayed, ...(diverged ? { diverged } : {}) } };
      // The call site threw already; a function target that caught that error still fails.
      if (!strict || !diverged || trial.error !== undefined || trial.verdict === 'interrupted') return settled;
      return { ...settled, verdict: 'failed', score: 0, error: `target ${c.targetName}: ${diverged.message} (--replay-tools-strict)` };
    },
  };
}
