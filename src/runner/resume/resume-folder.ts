import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CaseResultSchema, type CaseResult } from '../../core/results-schema.js';
import { writeAtomic } from '../../report/atomic-write.js';
import { readJsonlRecords } from '../../report/jsonl-records.js';
import { folderNames } from '../../report/run-folders.js';
import type { Reporter } from '../../report/reporter.js';
import type { PlannedCase } from '../../suite/plan.js';
import { PLAN_FILE, PlanRecordSchema, planRecord, type PlanRecord } from './resume-plan.js';

/** The file the JSON reporter streams finished cases to, in a run folder (report/json.ts). */
const CASES_FILE = 'cases.jsonl';

import { runFolder } from '../../report/run-folders.js';

export { runFolder };

/**
 * Writes the run folder's `plan.json` as the run begins, before the first trial: what `--resume`
 * checks the current plan against, even when the run is killed before it writes any results.
 */
export function planRecordReporter(opts: { outputDir: string; argv: string[]; cases: readonly PlannedCase[] }): Reporter {
  return {
    name: 'plan record (run folder)',
    async onBegin(info) {
      const record = planRecord(info.runId, opts.argv, opts.cases);
      await writeAtomic(join(runFolder(opts.outputDir, info.runId), PLAN_FILE), (write) => write(JSON.stringify(record)));
    },
  };
}

/** A run folder's plan record; undefined when it has none (a run that wrote no results file, or one older than `--resume`). */
export async function readPlanRecord(folder: string): Promise<PlanRecord | undefined> {
  try {
    const parsed = PlanRecordSchema.safeParse(JSON.parse(await readFile(join(folder, PLAN_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The run folders under `outputDir` that hold a plan record, newest first (by when the record was written). */
export async function resumableRuns(outputDir: string): Promise<string[]> {
  const runs = join(outputDir, 'runs');
  const names = await folderNames(runs);
  const dated = await Promise.all(
    names.map((name) =>
      stat(join(runs, name, PLAN_FILE)).then(
        (s) => ({ name, mtimeMs: s.mtimeMs }),
        () => undefined,
      ),
    ),
  );
  // Run ids start with their start time: that breaks a tie within a clock tick.
  return dated
    .filter((d) => d !== undefined)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name))
    .map((d) => d.name);
}

/**
 * The cases a run folder recorded as finished (`cases.jsonl`, one per line as each case ended). A run
 * killed hard may leave its last line torn: a line that is not a whole case is skipped, and that case
 * runs again.
 */
export async function readRecordedCases(folder: string): Promise<CaseResult[]> {
  return (await readJsonlRecords(join(folder, CASES_FILE), CaseResultSchema)) ?? [];
}
