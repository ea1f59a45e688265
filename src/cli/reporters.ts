import { relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { Reporter } from '../report/reporter.js';

export interface ReporterContext {
  cwd: string;
  outputDir: string;
  /** Streamed run folders kept (config `keepRuns`). */
  keepRuns?: number;
  version: string;
  verbose: boolean;
  /** `--save-baseline`: the JSON reporter writes its document here too. */
  saveBaseline?: string;
}

type Factory = (target: string | undefined, ctx: ReporterContext) => Promise<Reporter>;

/** Reporters by name; each module is imported only when chosen. */
const FACTORIES: Record<string, Factory> = {
  async terminal(_target, ctx) {
    const { terminalReporter } = await import('../report/terminal.js');
    const live = Boolean(process.stdout.isTTY) && !process.env.CI;
    return terminalReporter({ out: process.stdout, live, verbose: ctx.verbose });
  },
  async json(target, ctx) {
    const { jsonReporter } = await import('../report/json.js');
    const path = fileOf('json', target, ctx)!;
    const alsoTo = ctx.saveBaseline && ctx.saveBaseline !== path ? { alsoTo: [ctx.saveBaseline] } : {};
    return jsonReporter({ path, outputDir: ctx.outputDir, version: ctx.version, ...(ctx.keepRuns !== undefined ? { keepRuns: ctx.keepRuns } : {}), ...alsoTo });
  },
  async junit(target, ctx) {
    const { junitReporter } = await import('../report/junit.js');
    return junitReporter({ path: fileOf('junit', target, ctx)! });
  },
  async html(target, ctx) {
    const { htmlReporter } = await import('../report/html.js');
    return htmlReporter({ path: fileOf('html', target, ctx)!, outputDir: ctx.outputDir, version: ctx.version });
  },
  async github(target, ctx) {
    const { githubReporter } = await import('../report/github.js');
    const paths = { cwd: ctx.cwd, workspace: process.env.GITHUB_WORKSPACE || undefined };
    const reporter = githubReporter({ out: process.stdout, summaryFile: fileOf('github', target, ctx), paths });
    // The job summary GitHub hands out is not a file of the user's: only a named one is announced.
    return target ? reporter : { ...reporter, written: () => [] };
  },
};

/** The file a reporter writes (undefined: none), resolved as the reporter will use it. */
function fileOf(name: string, target: string | undefined, ctx: ReporterContext): string | undefined {
  if (name === 'json') return resolve(ctx.cwd, target ?? resolve(ctx.outputDir, 'results.json'));
  if (name === 'junit') return resolve(ctx.cwd, target ?? resolve(ctx.outputDir, 'junit.xml'));
  if (name === 'html') return resolve(ctx.cwd, target ?? resolve(ctx.outputDir, 'report.html'));
  if (name === 'github') return target ? resolve(ctx.cwd, target) : process.env.GITHUB_STEP_SUMMARY || undefined;
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
 * streams cases into. An empty path (`--json ''`, `junit=`) is bad input now.
 */
export function reporterOutputs(specs: string[], ctx: ReporterContext): PlannedOutput[] {
  const out: PlannedOutput[] = [];
  /** Which reporter writes each file. */
  const writers = new Map<string, string>();
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq === -1 ? spec : spec.slice(0, eq);
    const target = eq === -1 ? undefined : spec.slice(eq + 1);
    const field = `${name} reporter`;
    if (target !== undefined && target.trim() === '') throw new UserError(`the ${name} reporter was given an empty path`, { field });
    // The folder first: a file inside a folder that cannot exist is the folder's fault.
    if (name === 'json') out.push({ path: ctx.outputDir, kind: 'dir', field: 'outputDir' });
    const file = fileOf(name, target, ctx);
    if (!file) continue;
    // Two kinds of report in one file: the later one would silently replace the earlier.
    const other = writers.get(file);
    if (other !== undefined && other !== name) {
      throw new UserError(`the ${other} and ${name} reporters would both write ${relative(ctx.cwd, file) || file}, and one report would be lost: give each its own path`, { field: '--reporter' });
    }
    writers.set(file, name);
    out.push({ path: file, kind: 'file', field: name === 'github' && !target ? 'GITHUB_STEP_SUMMARY' : field });
  }
  return out;
}

export const REPORTER_NAMES = Object.keys(FACTORIES);

/** `name` or `name=path` specs, e.g. `terminal`, `json=out.json`; the terminal ends naming the files written. */
export async function buildReporters(specs: string[], ctx: ReporterContext): Promise<Reporter[]> {
  const out: Reporter[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq === -1 ? spec : spec.slice(0, eq);
    const target = eq === -1 ? undefined : spec.slice(eq + 1);
    const factory = FACTORIES[name];
    if (!factory) throw new UserError(`unknown reporter "${name}" (known: ${REPORTER_NAMES.join(', ')})`, { field: '--reporter' });
    out.push({ ...(await factory(target, ctx)), name });
  }
  if (specs.includes('terminal')) {
    const { wroteReporter } = await import('../report/wrote-lines.js');
    out.push({ ...wroteReporter({ out: process.stdout, cwd: ctx.cwd, reporters: [...out] }), name: 'terminal' });
  }
  return out;
}
