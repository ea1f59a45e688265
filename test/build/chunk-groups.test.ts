/**
 * Which file of dist/ each module joins (scripts/chunk-groups.mjs), on a small module graph: what
 * every command loads, what only `run` loads, and what `run` shares with a light command's lazy
 * imports. The built dist/ is held by test/e2e/startup-modules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { chunkGroups, type ModuleEdges } from '../../scripts/chunk-groups.mjs';

const SRC = '/repo/src';
const m = (name: string): string => `${SRC}/${name}.ts`;

/** A graph from `module: [static imports], [dynamic imports]` (names without src/ and .ts; others as given). */
function graphOf(edges: Record<string, [string[], string[]?]>): Map<string, ModuleEdges> {
  const id = (n: string): string => (n.startsWith('node:') || !n.includes('/') ? n : m(n));
  return new Map(Object.entries(edges).map(([k, [imports, dynamicImports = []]]) => [m(k), { imports: imports.map(id), dynamicImports: dynamicImports.map(id) }]));
}

const roots = { src: SRC, light: ['cli/main', 'cli/list', 'index'], lightEntries: [], commands: ['cli/run'], runPath: ['cli/run', 'runner/start'] };

const graph = graphOf({
  'cli/main': [['core/a'], ['cli/list', 'cli/run']],
  'cli/list': [['core/a']],
  index: [['core/a']],
  'core/a': [['report/registry', 'node:fs']],
  'report/registry': [[], ['report/html']],
  'report/html': [['report/fmt']],
  'report/fmt': [[]],
  'cli/run': [['core/a', 'runner/start', 'report/fmt']],
  'runner/start': [['node:fs'], ['providers/openai']],
  'providers/openai': [['openai', 'core/a']],
});

describe('chunk groups of dist/', () => {
  const group = chunkGroups(graph, roots);

  it('what the CLI, `list` and the public entry import statically is one file every command loads', () => {
    expect(['cli/main', 'cli/list', 'index', 'core/a', 'report/registry'].map((n) => group(m(n)))).toEqual(Array(5).fill('start'));
  });

  it("`run`'s path joins one file, and what a light command may still import lazily is kept out of it", () => {
    expect(group(m('cli/run'))).toBe('run');
    expect(group(m('runner/start'))).toBe('run');
    // The reporter registry of `start` can load the HTML writer, which imports it.
    expect(group(m('report/fmt'))).toBe('run-shared');
  });

  it('modules off the run path keep their own chunks, loaded on first use', () => {
    expect(group(m('providers/openai'))).toBeUndefined();
    expect(group(m('report/html'))).toBeUndefined();
  });

  it('a lazy import of a module that reaches the HTTP stack does not make what it imports light', () => {
    const withWire = graphOf({
      'cli/main': [['core/a'], ['cli/run']],
      'cli/list': [[]],
      index: [[]],
      // A light module can reach the runner only through a wire that imports node:http.
      'core/a': [[], ['providers/wire']],
      'providers/wire': [['node:http', 'runner/start']],
      'cli/run': [['runner/start']],
      'runner/start': [[]],
    });
    expect(chunkGroups(withWire, roots)(m('runner/start'))).toBe('run');
    const withoutHttp = new Map(withWire);
    withoutHttp.set(m('providers/wire'), { imports: [m('runner/start')], dynamicImports: [] });
    expect(chunkGroups(withoutHttp, roots)(m('runner/start'))).toBe('run-shared');
  });

  it('a root that is not in the graph fails the build, naming it', () => {
    expect(() => chunkGroups(graph, { ...roots, runPath: ['runner/renamed'] })).toThrow('src/runner/renamed.ts');
  });
});
