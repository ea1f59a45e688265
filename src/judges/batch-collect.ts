import { errorMessage, UserError } from '../core/errors.js';
import type { UncollectedBatch } from '../core/results-schema.js';
import type { BatchApi, BatchItemResult, BatchStatus } from '../providers/batch-types.js';
import { batchOutcomes } from './batch-outcomes.js';
import type { BatchPolling } from './batch-polling.js';

/** How long `rejudge --batch` waits, by default, for a batch still in progress at the provider. */
export const DEFAULT_COLLECT_WAIT_MS = 30 * 60_000;

/** What `rejudge --batch <id>` asks for: the recorded batch, and how long to wait while it is still in progress. */
export interface CollectRequest {
  batch: UncollectedBatch;
  /** How long to wait while the batch is still in progress (default DEFAULT_COLLECT_WAIT_MS). */
  waitMs?: number;
}

/** An uncollected batch's answers, read back: each answers the one judge call whose request digest it was recorded under. */
export interface CollectedAnswers {
  readonly id: string;
  readonly spec: string;
  /** The answer (or per-request error) held for a request with this digest, each given once; undefined when none is left. */
  take(digest: string): BatchItemResult | undefined;
  /** Held answers no judge call took (the judges or cases changed since the run). */
  readonly unused: number;
}

/**
 * Reads an uncollected batch at the provider: its status first (no wait when it has ended), polled with
 * the batch schedule while it is in progress for at most `waitMs` of waiting; then its result file,
 * streamed, each line parsed as the run would have (the same `results` and `batchOutcomes`). A batch that
 * failed, expired or was cancelled, one still running past the wait, or one the provider cannot show is
 * a UserError (exit 2) before anything is written.
 */
export async function collectBatch(api: BatchApi, req: CollectRequest, opts: { polling: BatchPolling; progress(line: string): void; signal: AbortSignal }): Promise<CollectedAnswers> {
  const { id, spec } = req.batch;
  const requests = req.batch.requests ?? [];
  const where = { field: '--batch' };
  const waitMs = req.waitMs ?? DEFAULT_COLLECT_WAIT_MS;
  let delay = opts.polling.firstDelayMs;
  let waited = 0;
  for (;;) {
    let status: BatchStatus;
    try {
      status = await api.status(id, opts.signal);
    } catch (err) {
      opts.signal.throwIfAborted();
      throw new UserError(`judge batch ${id} (${spec}) could not be read at the provider: ${errorMessage(err)}; no results file was written`, where);
    }
    if (status.state === 'ended') break;
    const counts = `${status.done}/${status.total || requests.length} done`;
    if (status.state !== 'pending' && status.state !== 'unknown') {
      throw new UserError(
        `judge batch ${id} (${spec}) ${status.state} at the provider (${counts}): its answers cannot be collected, and no results file was written; \`agent-evals rejudge\` without --batch judges those assertions anew`,
        where,
      );
    }
    if (waited >= waitMs) {
      throw new UserError(
        `judge batch ${id} (${spec}) is still in progress at the provider (${counts}) after ${waited / 1000} s of waiting (--batch-wait): no results file was written; collect it again later`,
        where,
      );
    }
    opts.progress(`judge batch ${id}: ${counts}${status.state === 'unknown' ? `, status '${status.providerState ?? '?'}'` : ''}; waiting to collect it`);
    const wait = Math.min(delay, waitMs - waited);
    await opts.polling.sleep(wait, opts.signal);
    opts.signal.throwIfAborted();
    waited += wait;
    delay = Math.min(delay * 2, opts.polling.maxDelayMs);
  }
  let results: BatchItemResult[];
  try {
    results = await api.results(id, opts.signal, new Map(requests.map((r) => [r.customId, r.schema])));
  } catch (err) {
    opts.signal.throwIfAborted();
    throw new UserError(`judge batch ${id} (${spec}): its results could not be read: ${errorMessage(err)}; no results file was written`, where);
  }
  const outcome = batchOutcomes(id, 'ended', results);
  const byDigest = new Map<string, BatchItemResult[]>();
  for (const r of requests) byDigest.set(r.digest, [...(byDigest.get(r.digest) ?? []), outcome(r.customId)]);
  opts.progress(`judge batch ${id} (${spec}): ${requests.length} answer${requests.length === 1 ? '' : 's'} collected`);
  let unused = requests.length;
  return {
    id,
    spec,
    take(digest) {
      const answer = byDigest.get(digest)?.shift();
      if (answer) unused -= 1;
      return answer;
    },
    get unused() {
      return unused;
    },
  };
}
