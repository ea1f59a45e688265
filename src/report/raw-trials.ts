import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TraceSchema, TurnResultSchema } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { safeJson } from '../core/safe-json.js';
import type { Reporter } from './reporter.js';
import { BatchedWrites } from './batched-writes.js';
import { readJsonlRecords } from './jsonl-records.js';

/**
 * What a re-judge needs of a trial that the shareable artifacts hold only as digests under
 * `trace: safe`: its trace and turns in clear (the run's secrets already redacted). Kept in the run
 * folder (`<outputDir>/runs/<id>/`, pruned with it), never in results, JUnit, summary, HTML or baselines.
 */
export const RAW_TRIALS_FILE = 'raw-trials.jsonl';

export const RawTrialSchema = z.object({
  index: z.number().int().nonnegative(),
  trace: TraceSchema,
  turns: z.array(TurnResultSchema).optional(),
});
export type RawTrial = z.infer<typeof RawTrialSchema>;

/** One line per case: its key (`suite/id`, with matrix values as `caseKey` writes them) and its trials. */
export const RawCaseSchema = z.object({ key: z.string(), trials: z.array(RawTrialSchema) });
export type RawCase = z.infer<typeof RawCaseSchema>;

export function rawTrialsPath(outputDir: string, runId: string): string {
  return join(outputDir, 'runs', runId, RAW_TRIALS_FILE);
}

/** Appends one case's raw trials (one line); lines of one run are written in the order given, in batches. */
export class RawTrialsWriter {
  private handle: Promise<FileHandle> | undefined;
  private readonly writes = new BatchedWrites(async (batch) => {
    // Opened once, at the first batch: a run whose cases all ran no trial leaves no file.
    this.handle ??= mkdir(dirname(this.path), { recursive: true }).then(() => open(this.path, 'a'));
    await (await this.handle).writev(batch);
  });

  constructor(readonly path: string) {}

  /** Queues one case's line: on disk within a moment, and once `flush` resolves. */
  append(rawCase: RawCase): Promise<void> | undefined {
    return this.writes.add(Buffer.from(`${safeJson(rawCase) ?? 'null'}\n`, 'utf8'));
  }

  /** Resolves once every line appended so far is on disk. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    const handle = this.handle;
    this.handle = undefined;
    await (await handle)?.close();
  }
}

/**
 * The reporter that keeps a run's raw trials: one line per case that ran a trial, in
 * `<outputDir>/runs/<id>/raw-trials.jsonl`, on disk once the run ends. It must see the cases
 * before the trace policy digests them (the runner's `rawReporters`), never in an artifact's place.
 */
export function rawTrialsReporter(opts: { outputDir: string }): Reporter {
  let writer: RawTrialsWriter | undefined;
  return {
    name: 'raw trials (run folder)',
    onBegin(info) {
      writer = new RawTrialsWriter(rawTrialsPath(opts.outputDir, info.runId));
    },
    // Not async: a case that waits in the batch costs its reporters no promise.
    onCaseEnd(result) {
      if (result.trials.length === 0) return;
      return writer!.append({ key: caseKey(result), trials: result.trials.map((t) => ({ index: t.index, trace: t.trace, ...(t.turns ? { turns: t.turns } : {}) })) });
    },
    async onEnd() {
      await writer?.close();
    },
  };
}

/**
 * The raw trials a run kept, by case key; undefined when the run kept none (a `full` run, a pruned
 * folder, another machine's results). A torn or foreign line is skipped, never an error.
 */
export async function readRawTrials(outputDir: string, runId: string): Promise<Map<string, RawCase> | undefined> {
  const records = await readJsonlRecords(rawTrialsPath(outputDir, runId), RawCaseSchema);
  return records && new Map(records.map((r) => [r.key, r]));
}
