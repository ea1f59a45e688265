// Joins the modules each entry of dist/ loads into fewer files, after `tsc` (`npm run build` runs
// both). Node 20 spends start-up on every ES module it resolves and reads, and zod alone is 95 of
// them (55 locales nobody reads): joined and tree-shaken, `list` loads ~70 files instead of ~245.
// Dynamic imports stay their own chunks, so a command still loads only what it uses (the runner,
// the HTTP stack and the SDKs load on first use; test/e2e/startup-modules.test.ts holds that).
//
// Entries are written in place of tsc's (dist/cli/main.js, dist/index.js, ...); shared code goes to
// dist/chunks/, at the depth of dist/cli/, so `new URL('../../package.json', import.meta.url)` names
// the same file from either. tsc's per-module output stays beside them for the type declarations and
// the isolated-target worker (a module of its own). Packages other than zod stay imports.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

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

/** Joined in: packages that cost start-up as many small modules. Every other package stays an import. */
const JOINED_PACKAGES = /^zod(\/|$)/;

rmSync(join(dist, 'chunks'), { recursive: true, force: true });
await build({
  input: Object.fromEntries(ENTRIES.map((e) => [e, join(root, 'src', `${e}.ts`)])),
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !JOINED_PACKAGES.test(id),
  logLevel: 'warn',
  output: { dir: dist, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
});
