import { UserError } from '../core/errors.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import { ResultsSchema } from '../core/results-schema.js';
import { pushAll } from '../core/push-all.js';
import { otlpRuns } from './otlp-runs.js';
import { recordedData } from './recorded-file.js';
import { parseResults, refuseDryRun } from './results-file.js';
import { tracesFromResults } from './results-traces.js';
import { tracesFromLines } from './trace-lines.js';
import { traceFiles } from './trace-paths.js';
import { pickTraces, type TracePick } from './trace-pick.js';
import { readUserText } from './user-text-file.js';

export interface TraceReadOptions extends TracePick {
  cwd: string;
}

export interface TracesRead {
  /** The traces kept, in the order read (files in the order given, a folder's files sorted). */
  traces: RecordedTrace[];
  /** The files read, as shown to the user. */
  files: string[];
  /** Records read that were not kept, and why (`3 traces not scored: started before --since …`). */
  notes: string[];
}

/** What a file that is none of the formats is told. */
const FORMATS = 'neither an OTLP JSON trace export, a results file nor JSONL trace lines ({input|messages, reply, …})';

/**
 * Reads recorded agent runs from files and folders for `agent-evals score`: OTLP JSON exports in
 * every convention `import` reads, agent-evals results files (each finished trial) and JSONL trace
 * lines, a folder as its .json/.jsonl/.ndjson files; then `pickTraces` (a trace id met again, the
 * time window, the sample). Bad input (no such file, an empty folder, no known format, a file with
 * no run to score) is a UserError naming the file and what was expected.
 */
export async function readTraces(paths: readonly string[], opts: TraceReadOptions): Promise<TracesRead> {
  const read: RecordedTrace[] = [];
  const notes: string[] = [];
  const files = await traceFiles(paths, opts.cwd);
  for (const { path, shown } of files) {
    const fileTraces = tracesOfFile(await readUserText(path, { file: shown }), shown, notes);
    if (fileTraces.length === 0) throw new UserError('holds no recorded run to score', { file: shown });
    pushAll(read, fileTraces);
  }
  const { traces, notes: picked } = pickTraces(read, opts);
  return { traces, files: files.map((f) => f.shown), notes: [...notes, ...picked] };
}

/** The traces of one file's text, by its format; what was left out goes into `notes`. */
function tracesOfFile(text: string, shown: string, notes: string[]): RecordedTrace[] {
  if (!text.trim()) throw new UserError(`is empty: ${FORMATS} was expected`, { file: shown });
  const data = recordedData(text);
  switch (data.format) {
    case 'otlp': {
      const { runs, skipped } = otlpRuns(data.spans, shown, 'score');
      if (skipped) notes.push(`${shown}: ${skipped} run${skipped === 1 ? '' : 's'} not scored: no input and reply recorded`);
      if (runs.length === 0) throw new UserError(`holds no agent run with both an input and a reply${skipped ? ` (${skipped} without)` : ''}: nothing to score`, { file: shown });
      return runs.map(({ id, startMs, input, messages, run, metadata }) => ({
        id,
        ...(startMs !== undefined ? { startedAt: new Date(startMs).toISOString() } : {}),
        ...(messages ? { messages } : { input }),
        run,
        metadata,
        source: `${shown}#${id}`,
      }));
    }
    case 'results': {
      const results = parseResults(data.data, shown, '', ResultsSchema);
      // Placeholder replies graded as if an agent had given them would score nothing real.
      refuseDryRun(results.run, { file: shown }, ': it holds no reply of the agent to score');
      const { traces, unfinished, unasked, digests } = tracesFromResults(results, shown);
      if (digests) notes.push(`${shown}: its tool calls' arguments and results are digests (the run kept them under \`trace: safe\`; \`trace: full\` keeps the values)`);
      if (unfinished) notes.push(`${shown}: ${unfinished} trial${unfinished === 1 ? '' : 's'} not scored: did not finish (an error or an interrupt)`);
      if (unasked) notes.push(`${shown}: ${unasked} trial${unasked === 1 ? '' : 's'} not scored: the file does not keep the case's input`);
      if (traces.length === 0) throw new UserError('holds no finished trial with its case input: nothing to score', { file: shown });
      return traces;
    }
    case 'lines':
      return tracesFromLines(text, shown);
    case 'unknown':
      throw new UserError(`${FORMATS} (${data.why || 'it has neither `resourceSpans`, the results document fields nor a trace line’s `reply`'}): nothing to score`, {
        file: shown,
      });
  }
}
