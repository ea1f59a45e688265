import { relative, resolve } from 'node:path';
import { Option } from 'commander';
import { UserError } from '../core/errors.js';
import type { Reporter } from '../report/reporter.js';
import type { BuiltInReporterOptions, ReporterDescriptor } from '../report/descriptor.js';
import { REPORTERS, type ReporterName } from '../report/registry.js';
import { parseReporterSpec, reporterChoices, reporterLines, reporterSpecProblem, type ReporterSpec } from '../report/reporter-spec.js';
import { namedReporter } from '../report/user-reporter.js';
import { loadUserReporter } from './user-reporters.js';
import { HookBound } from '../report/hook-bound.js';
import { DEFAULTS } from '../config/defaults.js';

export interface ReporterContext {
  cwd: string;
  outputDir: string;
  /** Streamed run folders kept (config `keepRuns`). */
  keepRuns?: number;
  version: string;
  verbose: boolean;
  /** `--save-baseline`: the JSON reporter writes its document here too. */
  saveBaseline?: string;
  /** `--baseline`: the baseline file, resolved (the HTML report shows its moved cases). */
  baselineFile?: string;
  /** Files written that the terminal does not name: the results document every run leaves by default. */
  quiet?: readonly string[];
  /** The bound on reporter modules' hooks (config `reporterTimeoutMs`); absent: the default's, without an interrupt. */
  hookBound?: HookBound;
}

const TERMINAL: ReporterName = 'terminal';

/** The `--reporter` option, its choices from the registry (`extra` names the command's own note). */
export function reporterOption(registry: readonly ReporterDescriptor[] = REPORTERS, extra = ''): Option {
  return new Option('--reporter <name[=path]>', `${reporterChoices(registry)} (repeatable${extra})`);
}

/** The help's "Reporters" section, from the registry. */
export function reportersHelp(registry: readonly ReporterDescriptor[] = REPORTERS): string {
  return `\nReporters:\n${reporterLines(registry)
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
}

/** A spec checked against the registry: exit 2 listing the registered names when it names none. */
function checkedSpec(spec: string, registry: readonly ReporterDescriptor[]): ReporterSpec & { descriptor: ReporterDescriptor | undefined } {
  const parsed = parseReporterSpec(spec);
  const problem = reporterSpecProblem(spec, registry);
  if (problem) throw new UserError(problem, { field: '--reporter' });
  if (parsed.target !== undefined && parsed.target.trim() === '') throw new UserError(`the ${parsed.name} reporter was given an empty path`, { field: `${parsed.name} reporter` });
  return { ...parsed, descriptor: registry.find((d) => d.name === parsed.name) };
}

/** The file a reporter writes (undefined: none), resolved as the reporter will use it. */
function fileOf(d: ReporterDescriptor | undefined, target: string | undefined, ctx: ReporterContext): string | undefined {
  if (target !== undefined) return resolve(ctx.cwd, target);
  if (d?.file?.default) return resolve(ctx.cwd, ctx.outputDir, d.file.default);
  if (d?.file?.defaultFromEnv) return process.env[d.file.defaultFromEnv] || undefined;
  return undefined;
}

/** One place a run will write, and what to blame when it cannot. */
export interface PlannedOutput {
  path: string;
  kind: 'file' | 'dir';
  field: string;
}

/**
 * What the chosen reporters will write: their files, and the output folder the JSON reporter
 * streams cases into. An unknown name, or an empty path (`--json ''`, `junit=`), is bad input now.
 */
export function reporterOutputs(specs: string[], ctx: ReporterContext, registry: readonly ReporterDescriptor[] = REPORTERS): PlannedOutput[] {
  const out: PlannedOutput[] = [];
  /** Which reporter writes each file. */
  const writers = new Map<string, string>();
  for (const spec of specs) {
    const { name, target, descriptor } = checkedSpec(spec, registry);
    // The folder first: a file inside a folder that cannot exist is the folder's fault.
    if (descriptor?.usesOutputDir) out.push({ path: ctx.outputDir, kind: 'dir', field: 'outputDir' });
    const file = fileOf(descriptor, target, ctx);
    if (!file) continue;
    // Two kinds of report in one file: the later one would silently replace the earlier.
    const other = writers.get(file);
    if (other !== undefined && other !== name) {
      throw new UserError(`the ${other} and ${name} reporters would both write ${relative(ctx.cwd, file) || file}, and one report would be lost: give each its own path`, { field: '--reporter' });
    }
    writers.set(file, name);
    const fromEnv = target === undefined ? descriptor?.file?.defaultFromEnv : undefined;
    out.push({ path: file, kind: 'file', field: fromEnv ?? `${name} reporter` });
  }
  return out;
}

/**
 * `name` or `name=path` specs, e.g. `terminal`, `json=out.json`, `./my-reporter.mjs`; the terminal
 * ends naming the files written.
 */
export async function buildReporters(specs: string[], ctx: ReporterContext, registry: readonly ReporterDescriptor[] = REPORTERS): Promise<Reporter[]> {
  const out: Reporter[] = [];
  const bound = ctx.hookBound ?? new HookBound(DEFAULTS.reporterTimeoutMs);
  for (const spec of specs) {
    const { name, target, descriptor } = checkedSpec(spec, registry);
    const file = fileOf(descriptor, target, ctx);
    const options: BuiltInReporterOptions = {
      path: file,
      pathGiven: target !== undefined,
      cwd: ctx.cwd,
      outputDir: ctx.outputDir,
      version: ctx.version,
      verbose: ctx.verbose,
      ...(ctx.keepRuns !== undefined ? { keepRuns: ctx.keepRuns } : {}),
      ...(ctx.saveBaseline !== undefined ? { saveBaseline: ctx.saveBaseline } : {}),
      ...(ctx.baselineFile !== undefined ? { baselineFile: ctx.baselineFile } : {}),
    };
    // A reporter module is user code: its create() and hooks are bounded; the built-in ones are ours.
    out.push(descriptor ? namedReporter((await descriptor.load()).create(options), name) : namedReporter(await loadUserReporter(name, options, bound), name, bound));
  }
  if (specs.includes(TERMINAL)) {
    const { wroteReporter } = await import('../report/wrote-lines.js');
    out.push({ ...wroteReporter({ out: process.stdout, cwd: ctx.cwd, reporters: [...out], ...(ctx.quiet ? { quiet: ctx.quiet } : {}) }), name: TERMINAL });
  }
  return out;
}

/**
 * The terminal reporter (the first named `terminal`; the `wrote` lines after it share the name) apart
 * from the others: what `-v` hands tool data in clear, while the others get the trace policy's view.
 */
export function terminalInClear(reporters: readonly Reporter[]): { clear: Reporter[]; reporters: Reporter[] } {
  const at = reporters.findIndex((r) => r.name === TERMINAL);
  return at < 0 ? { clear: [], reporters: [...reporters] } : { clear: [reporters[at]!], reporters: reporters.filter((_, i) => i !== at) };
}
