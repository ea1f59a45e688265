// Joins the modules each entry of dist/ loads into few files, after `tsc` (`npm run build` runs
// both). Node 20 spends start-up on every ES module it resolves and reads, and zod alone is 95 of
// them (55 locales nobody reads): joined and tree-shaken, `list` loads ~10 files of dist/ and `run`
// ~12 instead of ~70 and ~100. scripts/chunk-groups.mjs decides the files: one of what every command
// loads, one of what `run` loads before its first request; the rest (other commands, the provider
// wires, report writers) stay chunks loaded on first use, so `list` and the public entry still load
// no runner, HTTP stack or SDK (test/e2e/startup-modules.test.ts holds that).
//
// Entries are written in place of tsc's (dist/cli/main.js, dist/index.js, ...); shared code goes to
// dist/chunks/, at the depth of dist/cli/, so `new URL('../../package.json', import.meta.url)` names
// the same file from either. tsc's per-module output stays beside them for the type declarations and
// the isolated-target worker (a module of its own). Packages stay imports but those joined below.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { chunkGroups } from './chunk-groups.mjs';
import { checkNoCycles, writeCachedScript } from './cached-script.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

const ENTRIES = [
  // What is loaded from outside dist/: bin/agent-evals.js and the package's exports.
  'cli/main',
  'cli/heap-growth',
  'cli/process-end',
  'index',
  'api/vitest',
  'adapters/ai-sdk',
  'adapters/openai-agents',
  'adapters/langchain',
  'adapters/mastra',
  // Modules the tests import from dist/ beside the CLI they run in the same process (e.g. to make it
  // forget loaded configs): entries, so there is one copy of each, the one the CLI uses.
  'suite/import-module',
  'report/coalesced-output',
  'runner/start-run',
  'targets/create-target',
  'suite/json-schemas',
  'assertions/safe-regex',
  'api/run-eval',
  'api/evaluate',
];

/**
 * Joined in: packages that cost start-up as files (Node resolves, reads and compiles each; a CommonJS
 * one also walks its path for the real one). Every other package stays an import. zod, the CLI's
 * small packages, commander (see `lazyChildProcess`) and, where our providers import it, openai (154
 * modules: ~150 ms of CPU to import as files, ~40 joined). picomatch too, so its code is in the start
 * chunk's code cache (as a package it was compiled anew each run); fdir's own `require('picomatch')`
 * gets the joined one (`fdirJoinedPicomatch`). The clients handed to a target's own code
 * (src/targets/sdk-clients.ts) stay the installed package's, so what they throw is of the classes the
 * user's `openai` exports.
 */
const JOINED_PACKAGES = /^(zod|commander|picocolors|picomatch|safe-stable-stringify|tinyglobby|fdir|p-limit|yocto-queue)(\/|$)/;
const JOINED_FOR_PROVIDERS = /^openai(\/|$)/;
const COMMANDER = `${join('node_modules', 'commander')}/`;
const USER_CLIENTS = join(root, 'src', 'targets', 'sdk-clients.ts');
/** commander's own `require('node:child_process')`, which `lazyChildProcess` answers. */
const commanderChildProcess = (id, importer) => (id === 'node:child_process' || id === 'child_process') && importer?.includes(COMMANDER) === true;
const joined = (id, importer) => JOINED_PACKAGES.test(id) || (JOINED_FOR_PROVIDERS.test(id) && importer !== USER_CLIENTS) || commanderChildProcess(id, importer);

/** The chunk groups' roots (scripts/chunk-groups.mjs says what each does), as modules of src/. */
const GROUP_ROOTS = {
  // Not cli/heap-growth: it sets V8 flags, and V8 takes a code cache only under the flags it was
  // made under; set before the start chunk is compiled (its own file), they are the same at both ends.
  light: ['cli/process-end', 'cli/main', 'cli/program', 'cli/list', 'index'],
  lightEntries: ['api/evaluate', 'api/vitest', 'suite/import-module', 'suite/json-schemas', 'assertions/safe-regex'],
  commands: ['cli/run', 'cli/compare', 'cli/rejudge', 'cli/merge', 'cli/calibrate', 'cli/init', 'cli/report', 'cli/doctor', 'cli/watch', 'cli/watch-results', 'api/run-eval'],
  runPath: [
    'cli/run',
    'config/run-settings',
    'runner/shard-info',
    'runner/start-run',
    'runner/execute-run',
    'judges/create-judge-service',
    'judges/judged-specs',
    'report/terminal',
    'report/json',
    'report/raw-trials',
    'report/wrote-lines',
  ],
};

/**
 * commander requires node:child_process at its top only to spawn executable subcommands, which this
 * CLI never declares: it gets an object that requires the real module on its first property read
 * (child_process, with net, dgram and the socket plumbing, was ~30 ms of every start-up).
 */
const LAZY_CHILD_PROCESS = '\0lazy-child-process';
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  resolveId(source, importer) {
    return commanderChildProcess(source, importer) ? LAZY_CHILD_PROCESS : undefined;
  },
  load(id) {
    if (id !== LAZY_CHILD_PROCESS) return undefined;
    return "let real;\nmodule.exports = new Proxy({}, { get(_, key) { real ??= require('node:child_process'); return Reflect.get(real, key); } });\n";
  },
};

/**
 * fdir requires picomatch through its own `createRequire` at load (for its `glob()` builder, which
 * tinyglobby does not use): left alone, the joined picomatch would load a second time from
 * node_modules. Its require gets the joined one; the build stops when fdir no longer reads as expected.
 */
const FDIR_REQUIRE = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
const fdirJoinedPicomatch = {
  name: 'fdir-joined-picomatch',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/.test(id)) return undefined;
    if (!code.includes(FDIR_REQUIRE)) throw new Error(`scripts/bundle.mjs: fdir (${id}) no longer requires picomatch as fdirJoinedPicomatch expects`);
    // Lines kept where they were, so the source map needs no change (`map: null`).
    return { code: `import __joinedPicomatch from "picomatch"; ${code.replace(FDIR_REQUIRE, '\n\tpm = __joinedPicomatch;')}`, map: null };
  },
};

/** Module graph as rolldown parsed it, recorded when the build ends, read when chunks are formed. */
const graph = new Map();
let groupOf;
const recordGraph = {
  name: 'record-module-graph',
  buildEnd() {
    for (const id of this.getModuleIds()) {
      const m = this.getModuleInfo(id);
      if (m) graph.set(id, { imports: m.importedIds, dynamicImports: m.dynamicallyImportedIds });
    }
    groupOf = chunkGroups(graph, { src: join(root, 'src'), ...GROUP_ROOTS });
  },
};
const group = (name, priority) => ({ name, priority, test: (id) => groupOf(id) === name });

rmSync(join(dist, 'chunks'), { recursive: true, force: true });
const { output } = await build({
  input: Object.fromEntries(ENTRIES.map((e) => [e, join(root, 'src', `${e}.ts`)])),
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  external: (id, importer) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !joined(id, importer),
  logLevel: 'warn',
  plugins: [lazyChildProcess, fdirJoinedPicomatch, recordGraph],
  // A lazily imported module that a group joins with its static importers: meant, not news.
  onLog: (level, log, handler) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.id && groupOf?.(log.id) ? undefined : handler(level, log)),
  output: {
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    // Doc comments are in the declarations and the source maps; in the joined files they are only
    // more to read at start-up (and a package's `@typedef {import('./x.js')}` looks like an import).
    comments: { legal: true, annotation: true, jsdoc: false },
    codeSplitting: { groups: [group('start', 3), group('run-shared', 2), group('run', 1)] },
  },
});

// The start chunk runs as a script with a V8 code cache (scripts/cached-script.mjs says how, and
// src/cli/code-cache.ts why): the whole of it, for every importer, not a second copy for the CLI
// beside the ES module the public entry and the `run` chunks import, which would give a `list` or
// `run` two instances of every module in it (a config's UserError not the CLI's, two registries).
// So do the chunks `run` loads before its first request: its two groups and the OpenAI wire with the
// SDK joined into it (compiled anew on every run, ~580 KB, as ES modules). The Anthropic wire imports
// its SDK as a package, which a script could only require: it stays an ES module.
const CACHED_CHUNKS = ['start', 'run-shared', 'run', 'openai'];
const chunks = output.filter((o) => o.type === 'chunk' && o.fileName.startsWith('chunks/'));
for (const name of CACHED_CHUNKS) if (!chunks.some((c) => c.name === name)) throw new Error(`scripts/bundle.mjs: no ${name} chunk was built`);
const cached = chunks.filter((c) => CACHED_CHUNKS.includes(c.name));
checkNoCycles(
  cached.map((c) => c.fileName),
  new Map(chunks.map((c) => [c.fileName, c.imports])),
);
for (const c of cached) await writeCachedScript(join(dist, 'chunks'), c.fileName.replace(/^chunks\//, ''), '../cli/code-cache.js');
