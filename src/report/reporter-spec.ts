import type { ReporterDescriptor } from './descriptor.js';
import { largest } from '../core/extremes.js';
import { closestName } from '../core/closest-name.js';

/** One `--reporter` / config `reporters` entry: `name`, `name=path`, `./module.mjs` or `./module.mjs=path`. */
export interface ReporterSpec {
  /** The registered name, or the module path as written. */
  name: string;
  /** What followed `=`, as written. */
  target: string | undefined;
  /** A user's reporter module, not a registered name. */
  module: boolean;
}

/** A module path, not a registered name: it starts with `.` or `/`, or names a file (`x.mjs`, `a/b`). */
export function isReporterModule(name: string): boolean {
  return /^[./]|[/\\]|\.[cm]?[jt]s$/.test(name) || /^[A-Za-z]:/.test(name);
}

export function parseReporterSpec(spec: string): ReporterSpec {
  const eq = spec.indexOf('=');
  const name = eq === -1 ? spec : spec.slice(0, eq);
  return { name, target: eq === -1 ? undefined : spec.slice(eq + 1), module: isReporterModule(name) };
}

/** Why a spec names no reporter (undefined: it does), listing the registered names. */
export function reporterSpecProblem(spec: string, registry: readonly ReporterDescriptor[]): string | undefined {
  const list = commaListProblem(spec, registry);
  if (list) return list;
  const { name, target, module } = parseReporterSpec(spec);
  if (module) return undefined;
  const found = registry.find((d) => d.name === name);
  if (!found) {
    const names = registry.map((d) => d.name);
    const near = closestName(name, names);
    return `unknown reporter "${name}"${near ? `: did you mean "${near}"?` : ''} (known: ${names.join(', ')}; or a module path such as ./my-reporter.mjs)`;
  }
  if (target !== undefined && !found.file) return `the ${name} reporter writes no file: drop "=${target}"`;
  return undefined;
}

/**
 * A comma list (`json,html`, `junit=x.xml,html`), which other tools take: here each entry is one
 * reporter, so `junit=x.xml,html` would write a file named `x.xml,html`. Refused when an item after a
 * comma names a registered reporter; a path with a comma of its own (`out,v2/x.xml`) stays a path.
 */
function commaListProblem(spec: string, registry: readonly ReporterDescriptor[]): string | undefined {
  const items = spec.split(',');
  if (items.length < 2 || !items.slice(1).some((item) => registry.some((d) => d.name === parseReporterSpec(item.trim()).name))) return undefined;
  const each = items.map((item) => `"${item.trim()}"`);
  return `one reporter per entry: "${spec}" would be read as one; give ${each.slice(0, -1).join(', ')} and ${each.at(-1)} an entry each (on the command line, one --reporter each)`;
}

/** The name of the registry's one reporter that writes the results document. */
export function resultsReporterOf<D extends ReporterDescriptor>(registry: readonly D[]): D['name'] {
  const found = registry.filter((d) => d.results);
  if (found.length !== 1) throw new Error(`the reporter registry has ${found.length} reporters that write the results document; it needs one`);
  return found[0]!.name;
}

/** Whether one of the specs is the reporter that writes the results document (`json` or `json=path`; a module never is). */
export function writesResultsDocument(specs: readonly string[], registry: readonly ReporterDescriptor[]): boolean {
  return specs.some((spec) => {
    const { name, module } = parseReporterSpec(spec);
    return !module && registry.some((d) => d.name === name && d.results);
  });
}

/** `terminal | json[=path] | … | ./module.mjs[=path]`: the `--reporter` help, from the registry. */
export function reporterChoices(registry: readonly ReporterDescriptor[]): string {
  return [...registry.map((d) => (d.file ? `${d.name}[=path]` : d.name)), './module.mjs[=path]'].join(' | ');
}

/** Where a reporter writes when given no `=path`, in words (for the help and the docs). */
export function defaultFileText(d: ReporterDescriptor): string | undefined {
  if (d.file?.default) return `<outputDir>/${d.file.default}`;
  if (d.file?.defaultFromEnv) return `$${d.file.defaultFromEnv}`;
  return undefined;
}

/** One line per reporter, for the help after the options and the reference docs. */
export function reporterLines(registry: readonly ReporterDescriptor[]): string[] {
  const width =
    largest(
      registry.map((d) => d.name.length),
      'module.mjs'.length,
    ) + 2;
  return [
    ...registry.map((d) => {
      const file = defaultFileText(d);
      return `${d.name.padEnd(width)}${d.summary}${file ? ` (default file ${file})` : ''}`;
    }),
    `${'./x.mjs'.padEnd(width)}a reporter module of your own (docs/guide/extending.md)`,
  ];
}
