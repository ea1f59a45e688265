import { join } from 'node:path';
import type { Reporter } from './reporter.js';
import { CaseStore } from './case-store.js';
import { writeAtomic } from './atomic-write.js';
import { pruneRuns } from './prune-runs.js';
import { RUN_FOLDER_RESULTS } from './run-folders.js';
import { SCHEMA_VERSION } from '../core/results-schema.js';
import type { BuiltInReporterOptions } from './descriptor.js';

export interface JsonReporterOptions {
  /** The results document (written atomically at the end). */
  path: string;
  /** Where finished cases stream to while the run goes on. */
  outputDir: string;
  version: string;
  /** Run folders kept under `<outputDir>/runs/` once this one is written (default: all). */
  keepRuns?: number;
  /** Further paths the same document is written to (`--save-baseline`). */
  alsoTo?: string[];
}

/**
 * The results document. Cases stream to `<outputDir>/runs/<id>/cases.jsonl` as they
 * end; at the end the document is assembled from that file, in plan order, and renamed into place.
 */
export function jsonReporter(opts: JsonReporterOptions): Reporter {
  let store: CaseStore | undefined;
  let pruned: Promise<unknown> | undefined;
  const written: string[] = [];
  return {
    written: () => written,
    async onBegin(info) {
      store = new CaseStore(join(opts.outputDir, 'runs', info.runId, 'cases.jsonl'));
      await store.open();
      // Older run folders are removed while the run goes on, not after its last case: the removal is
      // no part of the run's tail. This one, just made, is the newest: it stays (a `keepRuns` of 0
      // removes it once the results are written). Never rejects.
      if (opts.keepRuns !== undefined) pruned = pruneRuns(join(opts.outputDir, 'runs'), Math.max(opts.keepRuns, 1));
    },
    // Not async: a case that waits in the batch costs its reporters no promise.
    onCaseEnd(result, c) {
      return store!.append(c.index, result, roundCostsIn);
    },
    async onEnd({ run, summary, comparison, redteam }) {
      const s = store!;
      const head = { schemaVersion: SCHEMA_VERSION, tool: { name: 'agent-evals', version: opts.version }, run, summary, ...(comparison ? { comparison } : {}), ...(redteam ? { redteam } : {}) };
      // The same document to each path (a saved baseline too), each renamed into place whole. An
      // interrupted run is no baseline: the one saved before stays.
      await s.flush();
      // The run folder keeps its own copy, so history, the estimate and `view` see every run, not only
      // the newest that `results.json` holds.
      const kept = join(opts.outputDir, 'runs', run.id, RUN_FOLDER_RESULTS);
      for (const path of [opts.path, kept, ...(run.interrupted ? [] : (opts.alsoTo ?? []))]) {
        await writeAtomic(path, (write) => {
          write(JSON.stringify(head, roundedCosts, 2).replace(/\n}$/, ',\n  "cases": ['));
          let first = true;
          // Each case's bytes as the store holds them: not decoded and encoded again.
          for (const bytes of s.storedBytesInOrder()) {
            write(first ? FIRST_CASE : NEXT_CASE);
            write(bytes);
            first = false;
          }
          write(first ? ']\n}\n' : '\n  ]\n}\n');
        });
        if (path !== kept) written.push(path);
      }
      await s.close();
      await pruned;
      if (opts.keepRuns === 0) await pruneRuns(join(opts.outputDir, 'runs'), 0);
    },
  };
}

export { RUN_FOLDER_RESULTS };

const FIRST_CASE = Buffer.from('\n    ');
const NEXT_CASE = Buffer.from(',\n    ');

/** Dollar figures to 10 decimal places: sums of prices carry float noise (0.0005759999999999999). */
export function roundedCosts(key: string, value: unknown): unknown {
  return key === 'costUsd' && typeof value === 'number' ? roundCost(value) : value;
}

const roundCost = (usd: number) => Math.round(usd * 1e10) / 1e10;

/**
 * JSON text (written without spaces) with its dollar figures rounded as `roundedCosts` rounds them.
 * For a case a trial ends with: a replacer would be called for every field of its trace. In JSON text
 * `"costUsd":` can only be a key (a quote inside a string is escaped).
 */
export function roundCostsIn(json: string): string {
  return ROUNDING_CHANGES.test(json) ? json.replace(COST_FIELD, (_, n: string) => `"costUsd":${JSON.stringify(roundCost(Number(n)))}`) : json;
}
const COST_FIELD = /"costUsd":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
/**
 * A figure rounding may change: more than 10 decimals, an exponent, or 6 digits or more before the
 * point. Any other (`0.0002012`) is the double nearest its decimal n/1e10 with |n| < 1e15, which
 * rounding gives back exactly: the text stays as it is, not copied.
 */
const ROUNDING_CHANGES = /"costUsd":-?(?:\d{6}|\d+\.\d{11}|\d+(?:\.\d+)?[eE])/;

/** The `json` reporter; with `--save-baseline` it writes the baseline too. */
export function create(o: BuiltInReporterOptions): Reporter {
  const alsoTo = o.saveBaseline && o.saveBaseline !== o.path ? { alsoTo: [o.saveBaseline] } : {};
  return jsonReporter({ path: o.path!, outputDir: o.outputDir, version: o.version, ...(o.keepRuns !== undefined ? { keepRuns: o.keepRuns } : {}), ...alsoTo });
}
