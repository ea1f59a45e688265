import { dirname, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { ResultsSchema } from '../core/results-schema.js';
import type { ToolTape } from '../runner/loop/tool-tape.js';
import { readResultsFile } from '../suite/results-file.js';

export interface ToolTapeFlags {
  replayTools?: string;
  replayToolsStrict?: string;
}

/**
 * The tape the flags name, read before any target runs: a missing or invalid results file, or a
 * `trace: safe` run whose folder is gone, is bad input (exit 2) naming the file.
 */
export async function loadToolTape(flags: ToolTapeFlags, outputDir: string, cwd: string): Promise<ToolTape | undefined> {
  if (flags.replayTools !== undefined && flags.replayToolsStrict !== undefined) {
    throw new UserError('--replay-tools and --replay-tools-strict do not go together: give the tape once, to the one that says how a call off it is handled');
  }
  const strict = flags.replayToolsStrict !== undefined;
  const given = flags.replayToolsStrict ?? flags.replayTools;
  if (given === undefined) return undefined;
  const flag = strict ? '--replay-tools-strict' : '--replay-tools';
  const file = resolve(cwd, given);
  const recorded = await readResultsFile(file, cwd, flag, ResultsSchema);
  // The run folder sits beside the results file in its outputDir; a copied file may still name this project's.
  const dirs = [...new Set([dirname(file), resolve(cwd, outputDir)])];
  const { readToolTape, toolTape } = await import('../runner/loop/tool-tape.js');
  return toolTape(await readToolTape(recorded, { file, cwd, flag, dirs }), strict, recorded.run.mcpTools);
}
