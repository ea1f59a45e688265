import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { Reporter } from '../report/reporter.js';

export interface ReporterContext {
  cwd: string;
  outputDir: string;
  /** Streamed run folders kept (config `keepRuns`). */
  keepRuns?: number;
  version: string;
  verbose: boolean;
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
    return jsonReporter({ path: resolve(ctx.cwd, target ?? resolve(ctx.outputDir, 'results.json')), outputDir: ctx.outputDir, version: ctx.version, ...(ctx.keepRuns !== undefined ? { keepRuns: ctx.keepRuns } : {}) });
  },
  async junit(target, ctx) {
    const { junitReporter } = await import('../report/junit.js');
    return junitReporter({ path: resolve(ctx.cwd, target ?? resolve(ctx.outputDir, 'junit.xml')) });
  },
  async github(target, ctx) {
    const { githubReporter } = await import('../report/github.js');
    const summaryFile = target ? resolve(ctx.cwd, target) : process.env.GITHUB_STEP_SUMMARY;
    return githubReporter({ out: process.stdout, summaryFile });
  },
};

export const REPORTER_NAMES = Object.keys(FACTORIES);

/** `name` or `name=path` specs, e.g. `terminal`, `json=out.json`. */
export async function buildReporters(specs: string[], ctx: ReporterContext): Promise<Reporter[]> {
  const out: Reporter[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq === -1 ? spec : spec.slice(0, eq);
    const target = eq === -1 ? undefined : spec.slice(eq + 1);
    const factory = FACTORIES[name];
    if (!factory) throw new UserError(`unknown reporter "${name}" (known: ${REPORTER_NAMES.join(', ')})`, { field: '--reporter' });
    out.push(await factory(target, ctx));
  }
  return out;
}
