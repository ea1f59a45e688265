import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { ResultsSchema, SCHEMA_VERSION, type Results } from '../core/results-schema.js';
import { parseResults, readResultsJson } from '../suite/results-file.js';
import { packageVersion } from './version.js';
import { redactArgv } from './redact-argv.js';
import { checkOutputs } from './output-check.js';

interface MergeFlags {
  output: string;
  exitCode?: boolean;
}

/** One shard's results JSON and the version it says it is; a missing or invalid file is exit 2 naming it. */
async function readShard(path: string, name: string): Promise<{ name: string; data: unknown; version: unknown }> {
  const data = await readResultsJson(path, name, '<files>');
  const version = typeof data === 'object' && data !== null ? (data as { schemaVersion?: unknown }).schemaVersion : undefined;
  return { name, data, version };
}

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('join the results files of a sharded run (--shard k/n) into one, as the unsharded run would have written it')
    .argument('<files...>', 'the results file of every shard, once each')
    .requiredOption('-o, --output <path>', 'where the merged results document is written')
    .option('--exit-code', 'exit as the unsharded run would have (1 a failed case or gate); else 0 once merged')
    .action(async (paths: string[], flags: MergeFlags, cmd: Command) => {
      const cwd = process.cwd();
      const out = resolve(cwd, flags.output);
      // A folder as -o is bad input before any part is read, not an internal error at the rename.
      await checkOutputs([{ path: out, kind: 'file', field: '--output' }], null);
      const read = await Promise.all(paths.map((p) => readShard(resolve(cwd, p), relative(cwd, resolve(cwd, p)) || p)));
      // Versions first: a file of another version would otherwise fail validation with a less useful message.
      const versions = new Set(read.map((r) => JSON.stringify(r.version)));
      if (versions.size > 1) throw new UserError(`mixed schema versions: ${read.map((r) => `${r.name} has ${JSON.stringify(r.version)}`).join(', ')}`);
      if (read[0]!.version !== SCHEMA_VERSION) throw new UserError(`${read[0]!.name}: schemaVersion ${JSON.stringify(read[0]!.version)}, this agent-evals reads ${SCHEMA_VERSION}`);
      const files = read.map((r) => ({ name: r.name, results: parseResults(r.data, r.name, '<files>', ResultsSchema) }));
      const [{ mergeShards }, { writeAtomic }, { roundedCosts }, { panelAgreementLines }, { allowlistLines }, { terminalSafe }] = await Promise.all([
        import('../runner/shards/merge-shards.js'),
        import('../report/atomic-write.js'),
        import('../report/json.js'),
        import('../report/panel-lines.js'),
        import('../report/allowlist-lines.js'),
        import('../report/sanitize.js'),
      ]);
      const merged = mergeShards(files, { argv: redactArgv(cmd.parent?.args ?? process.argv.slice(2)), version: packageVersion() });
      const { exitCode } = merged;
      const results = await withRedteam(merged.results, files);
      await writeAtomic(out, (write) => write(JSON.stringify(results, roundedCosts, 2) + '\n'));
      const s = results.summary;
      process.stdout.write(
        `Merged ${files.length} shards: ${s.cases.total} cases (${s.cases.passed} passed, ${s.cases.failed} failed, ${s.cases.scored} scored, ${s.cases.skipped} skipped) → ${relative(cwd, out) || out}\n`,
      );
      for (const f of s.failures) process.stdout.write(`Failure: ${f}\n`);
      // Recomputed over every part's cases, as the terminal's closing block would have said them; tool names are the agent's text.
      for (const line of panelAgreementLines(s.panels ?? [])) process.stdout.write(`Panel: ${terminalSafe(line)}\n`);
      for (const line of allowlistLines(s)) process.stdout.write(`${terminalSafe(line)}\n`);
      process.exitCode = flags.exitCode ? exitCode : 0;
    });
}

/**
 * The parts of a sharded `redteam` run (seed attacks only: `--shard` needs `--offline`) each hold their
 * attack success; the whole run's is summarised again over every part's cases.
 */
async function withRedteam(results: Results, files: { results: Results }[]): Promise<Results> {
  const parts = files.map((f) => f.results.redteam);
  if (!parts.some(Boolean)) return results;
  if (!parts.every(Boolean)) throw new UserError('some of the files are parts of a red-team run and some are not: merge the parts of one run');
  const [{ redteamSummary }, { emptyUsage }] = await Promise.all([import('../redteam/index.js'), import('../core/usage.js')]);
  const { cases, ...head } = results;
  return { ...head, redteam: redteamSummary(results, { source: parts[0]!.source, attackerUsage: emptyUsage() }), cases };
}
