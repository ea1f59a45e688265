// Which chunk each module of dist/ goes to (scripts/bundle.mjs), from the module graph rolldown
// parsed. Left to itself rolldown makes a chunk per set of dynamic imports that reach a module:
// ~250 small files, of which `run` read ~100 before its first request. Three groups instead:
//   start       what every command loads: the static imports of the CLI and of the public entry
//   run         what `run` loads on the way to its first request and `list` never can
//   run-shared  modules of that path that a command which runs nothing could still reach lazily
//               (report writers behind the reporter registry): own file, so `list` never pulls
//               `run`'s file in through them
// "Never can": a module is kept out of `run` when the CLI, `list` or the public entry reach it
// through any import, static or dynamic, that does not cross into a command, the runner or a
// module whose imports reach the HTTP stack or an SDK. Everything else keeps rolldown's own
// chunks (other commands, provider wires, SDK-backed modules), so they still load on first use.

/** Built-ins and packages whose importers are never joined into a file a light command loads. */
const HEAVY_IMPORTS = /^(node:)?(http|https|http2|tls|zlib|net)$|^(openai|@anthropic-ai\/sdk|re2js|ajv|@opentelemetry\/[^/]+|undici)(\/|$)/;

/**
 * @typedef {{ imports: string[], dynamicImports: string[] }} ModuleEdges
 * @param {Map<string, ModuleEdges>} graph every module id rolldown parsed, with its imports
 * @param {{ src: string, light: string[], lightEntries: string[], commands: string[], runPath: string[] }} roots
 *   src-relative module names without `.ts`: `light` are what every command loads (their static
 *   imports join `start`), `lightEntries` further public entries a config may import, `commands`
 *   the CLI's commands other than `list` (their own chunks), `runPath` the modules `run` imports on
 *   the way to its first request (statically or not) whose static imports join `run`
 * @returns {(id: string) => 'start' | 'run' | 'run-shared' | undefined}
 */
export function chunkGroups(graph, roots) {
  const ids = (names) =>
    names.map((n) => {
      const id = `${roots.src}/${n}.ts`;
      if (!graph.has(id)) throw new Error(`scripts/chunk-groups.mjs: no module src/${n}.ts in the graph (renamed?)`);
      return id;
    });
  const light = ids(roots.light);
  const runPath = ids(roots.runPath);
  const boundaries = new Set([...ids(roots.commands), ...runPath]);

  const reachesHeavy = memo((id) => [...closure(graph, [id])].some((m) => (graph.get(m)?.imports ?? []).some((i) => HEAVY_IMPORTS.test(i))));
  const start = closure(graph, light);
  const lightReach = closure(graph, [...light, ...ids(roots.lightEntries)], (d) => !boundaries.has(d) && !reachesHeavy(d));
  const run = closure(graph, runPath);

  return (id) => {
    if (start.has(id)) return 'start';
    if (!run.has(id)) return undefined;
    return lightReach.has(id) ? 'run-shared' : 'run';
  };
}

/** Module ids reached from `roots` by static imports, and by dynamic imports that `follow` accepts. */
function closure(graph, roots, follow = () => false) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const id = todo.pop();
    const edges = graph.get(id);
    if (seen.has(id) || !edges) continue;
    seen.add(id);
    todo.push(...edges.imports, ...edges.dynamicImports.filter(follow));
  }
  return seen;
}

function memo(f) {
  const known = new Map();
  return (x) => {
    if (!known.has(x)) known.set(x, f(x));
    return known.get(x);
  };
}
