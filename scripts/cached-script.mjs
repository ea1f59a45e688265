// A chunk of dist/ as a script with a V8 code cache (after scripts/bundle.mjs formed the chunks; the
// loader, src/cli/code-cache.ts, says why): the start chunk every command loads, and the chunks `run`
// loads before its first request. Each is built again, as a CommonJS file beside it
// (chunks/<name>-<hash>.cjs), and the chunk itself becomes a small ES module that runs that file
// through the loader and exports what the chunk exported under the same names. Every importer keeps
// importing the chunk (the CLI, the public entry a config imports, the other chunks, a worker that
// imports dist/): one instance of its modules per thread, as before.
//
// A chunk's static imports of other chunks (`./<name>-<hash>.js`) stay ES imports, made by its
// module in its place, which hands their namespaces to the script: the script's `require` of such a
// file answers with that namespace (its bindings stay live), and of anything else with Node's own,
// for built-ins only (a package could resolve to another file when required than when imported).
// Chunks that import each other statically, directly or not, are refused: the namespace of one
// would be read before its module ran.
//
// What CommonJS lacks, and how the built file has it:
// - `import.meta.url`: rolldown writes `pathToFileURL(__filename)`, and the file sits where the chunk
//   sits, so `new URL('../../package.json', import.meta.url)` names the same file;
// - `import()`: a script run by node:vm has Node's dynamic import only with an experimental flag or
//   warning (and not after its code came from a cache), so each `import(x)` becomes `__import(x)`,
//   which the ES module passes in: the import is made from the chunk's folder, as before (relative
//   chunks, packages that are ES modules only, user configs by URL);
// - top-level await: the chunk has none (rolldown refuses to build one as CommonJS);
// - live bindings: an export the chunk reassigns would be copied once; the build stops on one.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';

/**
 * Rewrites the chunk `dir/<file>` (e.g. chunks/start-D57scuer.js) into `<base>.cjs` and an ES module
 * in its place. `loader` is the loader's path from `dir` (../cli/code-cache.js).
 */
export async function writeCachedScript(dir, file, loader) {
  const path = join(dir, file);
  const base = file.replace(/\.js$/, '');
  const esm = readFileSync(path, 'utf8');
  const map = readFileSync(`${path}.map`, 'utf8');
  const { output } = await build({
    input: path,
    platform: 'node',
    // Every import stays one but the runtime helpers' chunk, stateless, which is copied in.
    external: (id, importer) => importer !== undefined && !/rolldown-runtime-[\w-]+\.js$/.test(id),
    logLevel: 'warn',
    // The chunk's own source map, so the file's maps to src/ (stack traces, test/support/module-probe.ts).
    plugins: [{ name: 'chunk-with-map', load: (id) => (id === path ? { code: esm, map } : undefined) }],
    write: false,
    output: { dir, entryFileNames: `${base}.cjs`, format: 'cjs', exports: 'named', sourcemap: true, comments: { legal: true, annotation: true, jsdoc: false } },
  });
  const chunk = output.find((o) => o.type === 'chunk');
  const siblings = [];
  for (const id of chunk.imports) {
    // Another chunk of the folder, as rolldown names it (a file name, no path).
    if (!id.startsWith('node:') && !id.includes('/') && existsSync(join(dir, id))) {
      siblings.push(`./${id}`);
      continue;
    }
    // A package could resolve to another file when required than when imported (`exports` conditions).
    if (!builtinModules.includes(id.replace(/^node:/, ''))) throw new Error(`scripts/cached-script.mjs: chunk ${file} imports ${id} statically: it would be required, not imported`);
  }
  const code = withChunkImport(chunk.code, file);
  for (const id of siblings) {
    if (!code.includes(`require(${JSON.stringify(id)})`)) throw new Error(`scripts/cached-script.mjs: chunk ${file} does not require ${id} as the loader expects`);
  }
  for (const name of chunk.exports) {
    if (!code.includes(`\nexports.${name} = `) && !code.includes(`\nexports[${JSON.stringify(name)}] = `)) {
      throw new Error(`scripts/cached-script.mjs: export ${name} of chunk ${file} is not a plain value (a live binding?)`);
    }
  }
  writeFileSync(join(dir, `${base}.cjs`), `${code}\n//# sourceMappingURL=${base}.cjs.map\n`);
  writeFileSync(join(dir, `${base}.cjs.map`), chunk.map.toString());
  rmSync(`${path}.map`);
  writeFileSync(path, facade(base, chunk.exports, loader, siblings));
}

/** Each `import(x)` of the code as `__import(x)` (the loader's parameter), found by parsing, not by text. */
function withChunkImport(code, file) {
  const spots = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    if (node.type === 'ImportExpression') {
      if (node.options) throw new Error(`scripts/cached-script.mjs: an import() with options in chunk ${file}`);
      spots.push(node);
    }
    for (const key of Object.keys(node)) if (key !== 'type') visit(node[key]);
  };
  visit(parseAst(code, { sourceType: 'script' }));
  let out = code;
  for (const node of spots.sort((a, b) => b.start - a.start)) {
    if (out.slice(node.start, node.start + 6) !== 'import') throw new Error(`scripts/cached-script.mjs: import() not where the parser put it in chunk ${file}`);
    out = `${out.slice(0, node.start)}__import(${out.slice(node.source.start)}`;
  }
  return out;
}

/** The ES module in the chunk's place: the other chunks it imports, and the script's exports under the chunk's export names. */
function facade(base, names, loader, siblings) {
  const locals = names.map((name, i) => `_${i} = m[${JSON.stringify(name)}]`);
  const exported = names.map((name, i) => `_${i} as ${JSON.stringify(name)}`);
  const imports = siblings.map((id, i) => `import * as c${i} from ${JSON.stringify(id)};\n`).join('');
  const handed = siblings.length ? `, { ${siblings.map((id, i) => `${JSON.stringify(id)}: c${i}`).join(', ')} }` : '';
  return `// What chunks/${base}.cjs exports, run with a code cache (scripts/cached-script.mjs; src/cli/code-cache.ts).
import { loadCachedScript } from ${JSON.stringify(loader)};
${imports}const m = loadCachedScript(new URL("./${base}.cjs", import.meta.url), (specifier) => import(specifier)${handed});
${names.length ? `const ${locals.join(', ')};\nexport { ${exported.join(', ')} };\n` : ''}`;
}

/**
 * Refuses chunks to run as scripts that import each other statically, directly or through other
 * chunks of the set: `imports` maps each chunk file to the chunk files it imports statically.
 */
export function checkNoCycles(files, imports) {
  for (const start of files) {
    const seen = new Set();
    const todo = [...(imports.get(start) ?? [])];
    while (todo.length > 0) {
      const f = todo.pop();
      if (f === start) throw new Error(`scripts/cached-script.mjs: chunk ${start} imports itself through other chunks: it cannot run as a script`);
      if (seen.has(f)) continue;
      seen.add(f);
      todo.push(...(imports.get(f) ?? []));
    }
  }
}
