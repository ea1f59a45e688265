// The pages of docs/reference/, rendered from the code itself: the config defaults and schema, the
// commander program, the assertion registries, the results schema and the provider registry.
// `base` is 'dist' for `npm run docs` (after a build) and 'src' for the freshness test, which
// compares every page on disk with what this renders.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ROOT = new URL('../../', import.meta.url);
const REGENERATE = '`npm run docs`';

/** Imports a module of the package from `<base>/` (dist: the built files; src: the TypeScript sources). */
function load(base, path) {
  return import(new URL(`${base}/${path}`, ROOT).href);
}

/** Every generated page, keyed by its path from the repository root. */
export async function referencePages(base) {
  const pages = {
    'docs/reference/config.md': await configPage(base),
    'docs/reference/cli.md': await cliPage(base),
    'docs/reference/assertions.md': await assertionsPage(base),
    'docs/reference/results.md': await resultsPage(base),
    'docs/reference/providers.md': await providersPage(base),
    'docs/reference/reporters.md': await reportersPage(base),
  };
  pages['docs/reference/README.md'] = indexPage(Object.keys(pages));
  return pages;
}

function header(title, from) {
  return `# ${title}\n\n<!-- Generated from ${from} by ${REGENERATE}; do not edit by hand (a test fails when this page is stale). -->\n\n`;
}

/** A table cell: one line, pipes escaped. */
function cell(text) {
  return String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function table(head, rows) {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n') + '\n';
}

function code(text) {
  return `\`${text}\``;
}

/** The JSDoc comments directly above `key:` lines of a source file (the text the config keys are documented with). */
function jsdocByKey(path) {
  const text = readFileSync(new URL(path, ROOT), 'utf8');
  const docs = new Map();
  for (const m of text.matchAll(/^[ \t]*\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*\n\s*(\w+)\??\s*:/gm)) {
    const body = m[1]
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, '').trim())
      .filter(Boolean)
      .join(' ');
    if (!docs.has(m[2])) docs.set(m[2], body);
  }
  return docs;
}

/** A short type for a JSON Schema node: `string`, `number (1–64)`, `'a' | 'b'`, `string[]`, `record of object`. */
function typeOf(node, defs = {}, depth = 0) {
  if (!node || typeof node !== 'object' || depth > 4) return 'any';
  if (node.$ref) return typeOf(defs[node.$ref.replace(/^#\/\$defs\//, '')], defs, depth + 1);
  if ('const' in node) return JSON.stringify(node.const);
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = node.anyOf ?? node.oneOf;
  if (union) return [...new Set(union.map((n) => typeOf(n, defs, depth + 1)))].join(' | ');
  if (Array.isArray(node.type)) return node.type.join(' | ');
  switch (node.type) {
    case 'array':
      return node.items ? `${wrap(typeOf(node.items, defs, depth + 1))}[]` : 'array';
    case 'object':
      if (node.properties) return 'object';
      if (node.additionalProperties && typeof node.additionalProperties === 'object') return `record of ${typeOf(node.additionalProperties, defs, depth + 1)}`;
      return 'object';
    case 'number':
    case 'integer':
      return `${node.type}${range(node)}`;
    case undefined:
      return 'any';
    default:
      return node.type;
  }
}

/** A number's bounds, as a reader says them (`0–1`, `≥ 1`, `> 0`); the safe-integer limits zod adds are left out. */
function range(node) {
  const huge = (v) => v === undefined || Math.abs(v) >= Number.MAX_SAFE_INTEGER;
  const lo = huge(node.minimum) ? (huge(node.exclusiveMinimum) ? undefined : `> ${node.exclusiveMinimum}`) : node.minimum;
  const hi = huge(node.maximum) ? (huge(node.exclusiveMaximum) ? undefined : `< ${node.exclusiveMaximum}`) : node.maximum;
  if (lo === undefined && hi === undefined) return '';
  if (hi === undefined) return ` (${typeof lo === 'number' ? `≥ ${lo}` : lo})`;
  if (lo === undefined) return ` (${typeof hi === 'number' ? `≤ ${hi}` : hi})`;
  return typeof lo === 'number' && typeof hi === 'number' ? ` (${lo}–${hi})` : ` (${lo}, ${typeof hi === 'number' ? `≤ ${hi}` : hi})`;
}

function wrap(type) {
  return type.includes(' ') ? `(${type})` : type;
}

function jsonSchemaOf(schema) {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

async function configPage(base) {
  const { ConfigSchema } = await load(base, 'config/schema.js');
  const { DEFAULTS } = await load(base, 'config/defaults.js');
  const fromDefaults = jsdocByKey('src/config/defaults.ts');
  const fromSchema = jsdocByKey('src/config/schema.ts');
  const rows = Object.entries(ConfigSchema.shape).map(([key, schema]) => {
    const description = fromDefaults.get(key) ?? fromSchema.get(key);
    if (!description) throw new Error(`config key "${key}" has no description: add a JSDoc comment above it in src/config/defaults.ts or src/config/schema.ts`);
    const json = jsonSchemaOf(schema);
    const fallback = key in DEFAULTS ? code(JSON.stringify(DEFAULTS[key])) : 'unset';
    return [code(key), typeOf(json, json.$defs), fallback, description];
  });
  return (
    header('Config reference', 'the config schema (src/config/schema.ts) and its defaults (src/config/defaults.ts)') +
    'Every key of `evals.config.ts` (`export default defineConfig({ ... })`). Every key is optional; command-line flags override the config, and the config overrides the defaults below.\n\n' +
    table(['key', 'type', 'default', 'what it does'], rows)
  );
}

async function cliPage(base) {
  const { buildProgram } = await load(base, 'cli/program.js');
  const program = await buildProgram(['--help']);
  const out = [header('Command-line reference', 'the commander program (src/cli/program.ts and the command modules it registers)')];
  out.push(`${program.description()}\n\n`);
  out.push(optionsTable(program.options));
  for (const cmd of program.commands) {
    const args = cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`));
    out.push(`\n## ${code(['agent-evals', cmd.name(), ...args].join(' '))}\n\n`);
    if (cmd.aliases().length > 0) out.push(`Alias: ${cmd.aliases().map(code).join(', ')}.\n\n`);
    out.push(`${cmd.description()}\n\n`);
    if (cmd.registeredArguments.length > 0) {
      out.push(
        table(
          ['argument', 'what it is'],
          cmd.registeredArguments.map((a) => [code(a.name()), a.description || '—']),
        ) + '\n',
      );
    }
    out.push(optionsTable(cmd.options));
  }
  return out.join('');
}

function optionsTable(options) {
  const shown = options.filter((o) => !o.hidden);
  if (shown.length === 0) return 'No options.\n';
  const defaults = shown.some((o) => o.defaultValue !== undefined);
  const rows = shown.map((o) => [code(o.flags), o.description, ...(defaults ? [o.defaultValue === undefined ? '' : code(o.defaultValueDescription ?? JSON.stringify(o.defaultValue))] : [])]);
  return table(['option', 'what it does', ...(defaults ? ['default'] : [])], rows);
}

function fieldsTable(json, skip = []) {
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {})
    .filter(([name]) => !skip.includes(name))
    .map(([name, node]) => [code(name), typeOf(node, json.$defs), required.has(name) ? 'yes' : '', node.description ?? '']);
  return rows.length === 0 ? 'No fields besides the common ones.\n' : table(['field', 'type', 'required', 'notes'], rows);
}

async function assertionsPage(base) {
  const { deterministicAssertions } = await load(base, 'assertions/registry.js');
  const { assertionCommonFields } = await load(base, 'assertions/types.js');
  const { judgeAssertionSchemas } = await load(base, 'judges/spec.js');
  const common = Object.keys(assertionCommonFields);
  const out = [header('Assertion reference', 'the assertion registry (src/assertions/registry.ts) and the judged assertion schemas (src/judges/spec.ts)')];
  out.push('Every assertion type an eval file may name in `assert:`. The fields below are the YAML fields (and the `t.<type>()` options in TypeScript).\n\n');
  out.push('## Fields every assertion accepts\n\n');
  out.push(fieldsTable(jsonSchemaOf(z.object(assertionCommonFields))) + '\n');
  out.push(
    '## Deterministic assertions\n\nChecked in code, no model call. The default severity applies when the assertion sets no `severity`. A final assertion fails for good once it fails on part of a conversation: it is what `simulatedUser.endOnFail` checks after each turn.\n\n',
  );
  out.push(
    table(
      ['type', 'default severity', 'final'],
      deterministicAssertions.map((d) => [code(d.type), d.defaultSeverity, d.final ? 'yes' : '']),
    ) + '\n',
  );
  for (const d of deterministicAssertions) {
    out.push(`### ${code(d.type)}\n\n`);
    if (d.description) out.push(`${d.description}\n\n`);
    out.push(fieldsTable(jsonSchemaOf(d.schema), ['type', ...common]) + '\n');
  }
  out.push("## Judged assertions\n\nGraded by a judge model; their severity and threshold default to the config's `judgeSeverity` and `judgeThreshold`.\n\n");
  for (const schema of judgeAssertionSchemas) {
    out.push(`### ${code(schema.shape.type.value)}\n\n`);
    out.push(fieldsTable(jsonSchemaOf(schema), ['type', ...common]) + '\n');
  }
  const { similarToAssertionSchema } = await load(base, 'assertions/similar-to.js');
  out.push("## Embedding assertions\n\nGraded with the judges by an embedding model (`model`, else the config's `embeddingModel`); severity defaults to `judgeSeverity`, `threshold` is required.\n\n");
  out.push(`### ${code(similarToAssertionSchema.shape.type.value)}\n\n`);
  out.push(fieldsTable(jsonSchemaOf(similarToAssertionSchema), ['type', ...common.filter((f) => f !== 'threshold')]) + '\n');
  return out.join('').replace(/\n+$/, '\n');
}

/** One row per field of the results document, nested fields as paths (`cases[].trials[].verdict`). */
function resultRows(node, path, defs, required, rows, seen) {
  if (!node || typeof node !== 'object') return;
  if (node.$ref) {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    if (seen.has(name)) return;
    return resultRows(defs[name], path, defs, required, rows, new Set([...seen, name]));
  }
  const union = node.anyOf ?? node.oneOf;
  if (union) {
    for (const branch of union) resultRows(branch, path, defs, required, rows, seen);
    return;
  }
  if (node.type === 'array' && node.items) return resultRows(node.items, `${path}[]`, defs, required, rows, seen);
  if (node.type === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object' && !node.properties)
    return resultRows(node.additionalProperties, `${path}.<key>`, defs, required, rows, seen);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const childPath = path ? `${path}.${name}` : name;
    if (rows.some((r) => r[0] === childPath)) continue;
    rows.push([childPath, typeOf(child, defs), (node.required ?? []).includes(name) ? 'yes' : '', child.description ?? '']);
    resultRows(child, childPath, defs, required, rows, seen);
  }
}

/**
 * The JSDoc of a field name that occurs as a key only once in a source file: a name used by several
 * objects (`id`, `score`) could carry another object's comment, so it gets none.
 */
function jsdocOfUniqueKeys(path) {
  const text = readFileSync(new URL(path, ROOT), 'utf8');
  const docs = jsdocByKey(path);
  const count = new Map();
  for (const m of text.matchAll(/^\s*(\w+)\??\s*:/gm)) count.set(m[1], (count.get(m[1]) ?? 0) + 1);
  return new Map([...docs].filter(([key]) => count.get(key) === 1));
}

async function resultsPage(base) {
  const { jsonSchemas } = await load(base, 'suite/json-schemas.js');
  const schema = jsonSchemas()['results.schema.json'];
  const docs = jsdocOfUniqueKeys('src/core/results-schema.ts');
  const rows = [];
  resultRows(schema, '', schema.$defs ?? {}, new Set(), rows, new Set());
  for (const row of rows) row[3] ||= docs.get(row[0].split('.').pop().replace(/\[\]$/, '')) ?? '';
  return (
    header('Results JSON reference', 'the results zod schema (src/core/results-schema.ts)') +
    "The fields of `results.json` (`<outputDir>/results.json`, or `--output`). The same document as a JSON Schema is [schemas/results.schema.json](../../schemas/results.schema.json); a field of a union shows every branch's fields.\n\n" +
    table(
      ['field', 'type', 'required', 'notes'],
      rows.map(([p, ...rest]) => [code(p), ...rest]),
    )
  );
}

async function providersPage(base) {
  const { providerListMarkdown } = await load(base, 'providers/provider-docs.js');
  return (
    header('Provider reference', 'the provider registry (src/providers/registry.ts)') +
    'The model providers a `provider:model` spec may name (targets and judges), the variable that holds each key and endpoint, and what differs per provider.\n\n' +
    providerListMarkdown() +
    '\n'
  );
}

async function reportersPage(base) {
  const { REPORTERS } = await load(base, 'report/registry.js');
  const fileOf = (r) =>
    !r.file ? 'none (prints only)' : r.file.default ? code(`<outputDir>/${r.file.default}`) : r.file.defaultFromEnv ? `the file named by ${code(r.file.defaultFromEnv)}` : 'none unless `=path`';
  return (
    header('Reporter reference', 'the reporter registry (src/report/registry.ts)') +
    "The built-in reporters, as `--reporter <name[=path]>` and the config's `reporters` name them. A reporter that writes a file takes `=path`; without it, it writes its default file. Your own reporter loads from a module path (`--reporter ./my-reporter.mjs`): see [Extending agent-evals](../guide/extending.md).\n\n" +
    table(
      ['reporter', 'what it does', 'default file'],
      REPORTERS.map((r) => [code(r.name), r.summary, fileOf(r)]),
    )
  );
}

function indexPage(paths) {
  const titles = {
    'config.md': 'Config: every key of `evals.config.ts`, its type and default',
    'cli.md': 'Command line: every command and option',
    'assertions.md': 'Assertions: every assertion type and its fields',
    'results.md': 'Results JSON: every field of `results.json`',
    'providers.md': 'Providers: the model providers, their keys and endpoints',
    'reporters.md': 'Reporters: the built-in reporters and the files they write',
  };
  const items = paths.map((p) => p.replace('docs/reference/', '')).map((f) => `- [${titles[f] ?? f}](${f})`);
  return header('Reference', 'the code') + 'Generated from the code; the guide explaining these is [docs/guide](../guide/README.md).\n\n' + items.join('\n') + '\n';
}
