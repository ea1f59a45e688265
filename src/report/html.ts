import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reporter } from './reporter.js';
import { CaseStore } from './case-store.js';
import { roundCostsIn, roundedCosts } from './json.js';
import { writeHtmlReport, type PageCase } from './html-page.js';
import { FIELD_LIMIT } from './html-cut.js';
import { readBaselineView } from './baseline-view.js';
import { SCHEMA_VERSION } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import type { BuiltInReporterOptions } from './descriptor.js';

export interface HtmlReporterOptions {
  /** The report file (written atomically at the end). */
  path: string;
  /** Finished cases stream to a scratch file under `<outputDir>/runs/<id>/` until the end. */
  outputDir: string;
  version: string;
  /** `--baseline`: the baseline file, resolved; the page shows its moved cases beside this run's (Before and after). */
  baselineFile?: string | undefined;
}

/**
 * `--reporter html[=path]`: the self-contained HTML report of the run. Like the JSON reporter it
 * keeps no trials in memory: cases stream to a scratch JSONL file and are read back in plan order
 * when the page is written; the scratch file is removed afterwards.
 */
export function htmlReporter(opts: HtmlReporterOptions): Reporter {
  let store: CaseStore | undefined;
  const keys = new Map<number, string>();
  let written: string[] = [];
  return {
    written: () => written,
    async onBegin(info) {
      store = new CaseStore(join(opts.outputDir, 'runs', info.runId, 'html-cases.jsonl'));
      await store.open();
    },
    async onCaseEnd(result, c) {
      keys.set(c.index, caseKey(result));
      await store!.append(c.index, result, roundCostsIn);
    },
    async onEnd({ run, summary, comparison, redteam }) {
      const s = store!;
      const head = JSON.parse(
        JSON.stringify(
          { schemaVersion: SCHEMA_VERSION, tool: { name: 'agent-evals', version: opts.version }, run, summary, ...(comparison ? { comparison } : {}), ...(redteam ? { redteam } : {}) },
          roundedCosts,
        ),
      ) as Record<string, unknown>;
      const order = [...keys.keys()].sort((a, b) => a - b);
      async function* cases(): AsyncGenerator<PageCase> {
        let n = 0;
        for await (const json of s.casesInOrder()) yield { json, key: keys.get(order[n++]!)! };
      }
      try {
        const baseline = comparison ? await readBaselineView(opts.baselineFile, comparison, run.trace) : undefined;
        const page = await writeHtmlReport(opts.path, head, cases(), FIELD_LIMIT, { baseline });
        written = [opts.path, ...(page.filesDir ? [page.filesDir] : [])];
      } finally {
        await s.close();
        await rm(s.path, { force: true });
      }
    },
  };
}

/** The `html` reporter. */
export function create(o: BuiltInReporterOptions): Reporter {
  return htmlReporter({ path: o.path!, outputDir: o.outputDir, version: o.version, baselineFile: o.baselineFile });
}
