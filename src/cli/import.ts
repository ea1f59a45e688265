import { basename, extname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { ResultsSchema } from '../core/results-schema.js';
import type { RecordedRun } from '../adapters/otel-recorded-run.js';
import { casesFromRuns, runsFromResults, type SkippedConversation } from '../suite/import-cases.js';
import { terminalSafe } from '../report/sanitize.js';
import { importedEvalText } from '../suite/import-yaml.js';
import { conventionNames, otlpRuns } from '../suite/otlp-runs.js';
import { recordedData } from '../suite/recorded-file.js';
import { parseResults } from '../suite/results-file.js';
import { readUserText } from '../suite/user-text-file.js';
import { loadConfigFromFlags } from './prepare.js';
import { checkNewEvalFile, checkWrittenTarget, writeNewEvalFile } from './written-eval-file.js';

interface ImportFlags {
  out?: string;
  suite?: string;
  target: string;
}

/** A suite name or case id: no spaces, `*` or `?` (they are matched by --filter globs). */
const NAME = /^[^\s*?]+$/;

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('write an eval file from an OTLP JSON trace export or an agent-evals results file: one case per recorded agent run, its reply as the reference, a trajectory skeleton to edit')
    .argument('<file>', `an OTLP JSON trace export (one document, or one per line) in the ${conventionNames()} conventions, or a results.json`)
    .option('-o, --out <path>', 'the eval file to write (*.eval.yaml or *.eval.yml); an existing file is not replaced (default: evals/<file name>.eval.yaml)')
    .option('--suite <name>', 'the suite name (default: the file name)')
    .option('--target <name>', 'the target named in evals.config that the cases run against', 'agent')
    .action(async (file: string, flags: ImportFlags) => {
      const cwd = process.cwd();
      const path = resolve(cwd, file);
      const shown = relative(cwd, path) || path;
      const stem = basename(path, extname(path)).replace(/\.(results|traces?)$/, '');
      const suite = flags.suite ?? (stem.replace(/[^A-Za-z0-9._-]+/g, '-') || 'imported');
      if (!NAME.test(suite)) throw new UserError('a suite name has no spaces, "*" or "?"', { field: '--suite' });
      const out = resolve(cwd, flags.out ?? `evals/${suite}.eval.yaml`);
      const outShown = relative(cwd, out) || out;
      await checkNewEvalFile(out, outShown, '--out', 'imported cases');
      const { runs, skipped, kind, conversations = [] } = recordedRuns(await readUserText(path, { file: shown }), shown);
      const skips = [skipped ? `${skipped} without an input and a reply skipped` : '', conversationsNote(conversations)].filter(Boolean);
      if (runs.length === 0) throw new UserError(`holds no agent run with both an input and a reply${skips.length ? ` (${skips.join('; ')})` : ''}: nothing to import`, { file: shown });
      // Without a config file there is nothing to check against yet: the file is written for a config to come.
      const config = await loadConfigFromFlags({}, cwd);
      if (config.file !== null) checkWrittenTarget(flags.target, Object.keys(config.targets), `the imported cases (${config.file})`);
      const { cases, duplicates } = casesFromRuns(runs);
      const text = await importedEvalText(cases, { suite, target: flags.target, source: shown, kind });
      await writeNewEvalFile(out, outShown, '--out', text, 'the runs were read');
      const notes = [...skips, duplicates ? `${duplicates} repeating an earlier run kept once` : ''].filter(Boolean);
      process.stdout.write(
        `wrote ${outShown}: ${cases.length} case${cases.length === 1 ? '' : 's'} from ${runs.length} recorded run${runs.length === 1 ? '' : 's'} of ${shown}${notes.length ? ` (${notes.join('; ')})` : ''}; edit it, then \`agent-evals list ${outShown}\`\n`,
      );
    });
}

/** The recorded runs of an OTLP export or a results file; anything else is bad input. */
function recordedRuns(text: string, shown: string): { runs: RecordedRun[]; skipped: number; kind: string; conversations?: SkippedConversation[] } {
  const data = recordedData(text);
  if (data.format === 'otlp') {
    const { runs, skipped } = otlpRuns(data.spans, shown, 'import');
    return { runs, skipped, kind: 'an OTLP trace export' };
  }
  if (data.format === 'results') return { ...runsFromResults(parseResults(data.data, shown, '<file>', ResultsSchema)), kind: 'an agent-evals results file' };
  throw neither(shown, (data.format === 'unknown' && data.why) || 'it has neither `resourceSpans` nor the results document fields');
}

function neither(shown: string, why: string): UserError {
  return new UserError(`neither an OTLP JSON trace export nor an agent-evals results file (${why}): nothing to import`, { file: shown });
}

/**
 * Why recorded conversations were left out, naming the first few. A simulated user's goal was its
 * case's `input`: a one-turn case asking the goal would test another thing than the conversation did.
 */
function conversationsNote(list: readonly SkippedConversation[]): string {
  if (list.length === 0) return '';
  const simulated = list.filter((c) => c.simulated).length;
  const what = simulated === list.length ? 'simulated-user conversation' : simulated === 0 ? 'multi-turn conversation' : 'conversation';
  const named = list
    .slice(0, 3)
    .map((c) => `${terminalSafe(c.key)} at ${terminalSafe(c.at)}`)
    .join(', ');
  const more = list.length > 3 ? ` and ${list.length - 3} more` : '';
  return `${list.length} ${what}${list.length === 1 ? '' : 's'} skipped (${named}${more}): a conversation is not one input and its reply, so it stays the case its eval file has`;
}
