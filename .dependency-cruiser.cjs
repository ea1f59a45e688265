// The floors of src/ (README, "Development"): a folder imports only folders below it and itself.
// `npm run lint:imports` checks them; src/index.ts (the public API) may import anything.
// Listed top to bottom; floors in one entry share a level: each imports the levels below, never the other.
const LEVELS = ['cli', 'api', ['redteam', 'generate'], 'config', 'runner', 'report', 'suite', 'judges', 'targets', 'assertions', 'providers', 'stats', 'adapters', 'core'];
const FLOORS = LEVELS.flat();

// report sits beside the runner and adapters beside everything: both read only core types, so each
// is checked by its own rule.
const SIDE = { report: ['core'], adapters: ['core'] };

const floorRule = (floor) => {
  const level = LEVELS.findIndex((l) => l === floor || (Array.isArray(l) && l.includes(floor)));
  const allowed = SIDE[floor] ?? LEVELS.slice(level + 1).flat();
  return {
    name: `floor-${floor}`,
    comment: allowed.length ? `src/${floor}/ may import only ${allowed.map((f) => `${f}/`).join(', ')} (and itself)` : `src/${floor}/ imports nothing of ours outside itself`,
    severity: 'error',
    from: { path: `^src/${floor}/` },
    to: { path: '^src/', pathNot: `^src/(${[floor, ...allowed].join('|')})/` },
  };
};

// The entrances of a run, and the pieces that only the front door (runner/start-run.ts) puts together:
// the runner's (with the public faces that re-export them), the judge wiring's (judges/) and the run's redactor.
const ENTRANCES = ['cli/run\\.ts', 'cli/run-base\\.ts', 'cli/rejudge\\.ts', 'cli/score\\.ts', 'cli/compare-rejudge\\.ts', 'cli/calibrate\\.ts', 'api/run-eval\\.ts'];
const RUN_ASSEMBLY = [
  'runner/loop/execute-run',
  'runner/loop/index',
  'runner/api-keys',
  'runner/rejudge/rejudge',
  'runner/rejudge/index',
  'runner/score/score',
  'runner/score/index',
  'runner/calibrate/calibrate',
  'runner/calibrate/index',
  'judges/create-judge-service',
  'judges/judge-refs',
  'judges/judge-keys',
  'providers/run-redactor',
];

// The modules (under src/) that define the data blocks the server writes into the HTML pages; the
// page's browser code imports their types (and only types: `page-alone`) so both sides read one
// definition. A type-only import is erased by the bundler, and page/tsconfig.json (DOM, no
// Node types) still checks what those types reach.
const PAGE_DATA = ['report/history-data.ts', 'report/view-data.ts', 'report/review-items.ts', 'report/baseline-types.ts', 'core/results-schema.ts', 'core/draft-review.ts'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...FLOORS.map((floor) => floorRule(floor)),
    {
      name: 'one-front-door',
      comment:
        'every way a run starts goes through src/runner/start-run.ts (openRun): an entrance never assembles a run itself (judge references, API keys, redactor, judge service, execute or re-judge)',
      severity: 'error',
      from: { path: `^src/(${ENTRANCES.join('|')})$` },
      to: { path: `^src/(${RUN_ASSEMBLY.join('|')})\\.ts$` },
    },
    {
      name: 'runner-public-face',
      comment:
        "src/runner/ is the front door (start-run.ts, api-keys.ts) over one folder per feature: the run loop (loop/), and resume, estimate, rejudge, isolation, users, shards, calibrate, doctor. A folder is reached from another folder or the front door only through its index.ts, its public face: a feature imports the loop's index.ts, never a loop module; the loop imports a feature's index.ts",
      severity: 'error',
      from: { path: '^src/runner/([^/]+)' },
      to: { path: '^src/runner/[^/]+/', pathNot: '^src/runner/($1/|[^/]+/index\\.ts$)' },
    },
    {
      name: 'runner-front-door-on-top',
      comment: "nothing in src/runner/'s folders imports the front door (src/runner/start-run.ts, api-keys.ts): it opens the loop and the features, never the other way round",
      severity: 'error',
      from: { path: '^src/runner/[^/]+/' },
      to: { path: '^src/runner/[^/]+\\.ts$' },
    },
    {
      name: 'page-alone',
      comment:
        "page/ is the report's browser code (bundled into dist/report/page-scripts.json): it imports no value of ours outside itself (a type-only import is erased when bundled, so the bundle holds nothing of the server), and nothing of ours imports it but through that built string",
      severity: 'error',
      from: { path: '^page/' },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'page-data-types',
      comment: `One definition of the data the server writes into the pages: page/ imports it as types only (\`import type\`), and only from the modules that define it (${PAGE_DATA.join(', ')}), never keeping a copy of its own`,
      severity: 'error',
      from: { path: '^page/' },
      to: { path: '^src/', pathNot: `^src/(${PAGE_DATA.map((f) => f.replace('.', '\\.')).join('|')})$`, dependencyTypes: ['type-only'] },
    },
    {
      name: 'page-only-bundled',
      comment: 'nothing in src/ imports page/ (the browser code): the page script is read as the string scripts/page-bundle.mjs builds',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^page/' },
    },
    {
      name: 'no-circular',
      comment: 'no import circles, type-only imports included: two modules that need each other share a piece that belongs in a lower module of its own (move it there), not behind an `import type`',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'floor-unknown',
      comment: 'every file under src/ (but index.ts) belongs to a floor; a new folder is added to FLOORS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/((${FLOORS.join('|')})/|index\\.ts$)` },
      to: {},
    },
  ],
  options: {
    includeOnly: '^(src|page)/',
    // Type-only imports are edges too: a type from a higher floor ties the lower floor to it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};
