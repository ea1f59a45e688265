import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The `lint:imports` script that `npm test` runs, with the repository's own config. */
function lintImports(cwd: string): Promise<{ code: number; output: string }> {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [bin, ...args] = scripts['lint:imports']!.split(' ');
  expect(bin).toBe('depcruise');
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/.bin/depcruise'), ...args, '--config', join(root, '.dependency-cruiser.cjs')],
      { cwd, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        done({ code: err ? Number(err.code) : 0, output: stdout + stderr });
      },
    );
  });
}

describe('the import floors (npm run lint:imports)', () => {
  let dir: string;
  // One run of the check over the fixture below; each test reads what it said about its part.
  let lint: { code: number; output: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'floors-'));
    copyFileSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    const files: Record<string, string> = {
      // Back-edges: a type-only import from core up to runner, and report reading suite.
      'src/core/port.ts': "import type { Plan } from '../runner/plan.js';\nexport type Port = Plan;\n",
      'src/report/json.ts': "import { load } from '../suite/load.js';\nexport const json = load;\n",
      // Downward edges, and the public API importing from the top floor: all allowed.
      'src/core/value.ts': 'export const value = 1;\n',
      'src/suite/load.ts': "import { value } from '../core/value.js';\nexport const load = value;\n",
      'src/runner/plan.ts':
        "import { value } from '../core/value.js';\nimport { json } from '../report/json.js';\nimport { load } from '../suite/load.js';\nexport type Plan = typeof value | typeof json | typeof load;\n",
      'src/cli/main.ts': "import type { Plan } from '../runner/plan.js';\nexport const main = (p: Plan) => p;\n",
      'src/index.ts': "export { main } from './cli/main.js';\nexport type { Port } from './core/port.js';\n",
      // The page's browser code: types only, and only from a module that defines a page's data.
      'src/report/history-data.ts': 'export interface HistoryData { runs: string[] }\nexport const CHANGED_MOST = 20;\n',
      'src/report/html-cut.ts': 'export const FIELD_LIMIT = 1;\nexport type Cut = number;\n',
      'page/history-main.ts': "import type { HistoryData } from '../src/report/history-data.js';\nexport const runs = (d: HistoryData) => d.runs.length;\n",
      'page/history-cases.ts': "import { CHANGED_MOST } from '../src/report/history-data.js';\nexport const most = CHANGED_MOST;\n",
      'page/review-main.ts': "import type { Cut } from '../src/report/html-cut.js';\nexport const cut = (c: Cut) => c;\n",
      // runner/ by feature: a folder reaches another only through its index.ts, and none reaches the front door.
      'src/runner/loop/verdict.ts': 'export const passed = (n: number) => n > 0;\n',
      'src/runner/loop/index.ts': "export { passed } from './verdict.js';\n",
      'src/runner/loop/trial.ts': "import { user } from '../users/user.js';\nexport const trial = user;\n",
      'src/runner/users/user.ts': 'export const user = 1;\n',
      'src/runner/users/index.ts': "export { user } from './user.js';\n",
      'src/runner/resume/kept.ts': "import { passed } from '../loop/verdict.js';\nexport const kept = passed;\n",
      'src/runner/rejudge/plan.ts': "import { passed } from '../loop/index.js';\nimport { user } from '../users/index.js';\nexport const plan = passed(user);\n",
      'src/runner/shards/merge.ts': "import type { Start } from '../start-run.js';\nexport const merge = (s: Start) => s;\n",
      'src/runner/start-run.ts': "import { plan } from './rejudge/plan.js';\nimport { passed } from './loop/index.js';\nexport type Start = typeof plan | typeof passed;\n",
      // Two floors of one level (redteam and generate): each imports the levels below, neither the other.
      'src/config/settings.ts': 'export const settings = 1;\n',
      'src/redteam/attacks.ts': "import { draft } from '../generate/drafts.js';\nimport { settings } from '../config/settings.js';\nexport const attacks = draft + settings;\n",
      'src/generate/drafts.ts':
        "import type { Attack } from '../redteam/attack.js';\nimport { settings } from '../config/settings.js';\nexport const draft = settings;\nexport type Drafted = Attack;\n",
      'src/redteam/attack.ts': 'export type Attack = string;\n',
      // A circle within one floor, closed by a type-only import.
      'src/suite/case-list.ts': "import { byTag } from './case-filter.js';\nexport type CaseList = string[];\nexport const tagged = byTag;\n",
      'src/suite/case-filter.ts': "import type { CaseList } from './case-list.js';\nexport const byTag = (cases: CaseList) => cases.length;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    lint = await lintImports(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a back-edge, naming the file, the import and the rule; downward edges pass', () => {
    const { code, output } = lint;
    expect(code).not.toBe(0);
    expect(output).toContain('error floor-core: src/core/port.ts → src/runner/plan.ts');
    expect(output).toContain('src/core/ imports nothing of ours outside itself');
    expect(output).toContain('error floor-report: src/report/json.ts → src/suite/load.ts');
    expect(output).toContain('src/report/ may import only core/');
    expect(output).toMatch(/\b11 dependency violations\b/);
  });

  it('keeps two floors of one level apart: redteam and generate import the levels below, never each other', () => {
    const { output } = lint;
    expect(output).toContain('error floor-redteam: src/redteam/attacks.ts → src/generate/drafts.ts');
    expect(output).toContain('error floor-generate: src/generate/drafts.ts → src/redteam/attack.ts');
    expect(output).not.toContain('src/redteam/attacks.ts → src/config/settings.ts');
    expect(output).not.toContain('src/generate/drafts.ts → src/config/settings.ts');
  });

  it('fails on an import circle, a type-only import counted, naming the modules around it', () => {
    expect(lint.output).toMatch(/error no-circular: src\/suite\/case-(list|filter)\.ts → \s+src\/suite\/case-(list|filter)\.ts →\s+src\/suite\/case-(list|filter)\.ts/);
    expect(lint.output).toContain('no import circles, type-only imports included');
  });

  it('lets the page import a page-data module as types only: a value import, or types from elsewhere, is refused', () => {
    const { output } = lint;
    expect(output).toContain('error page-alone: page/history-cases.ts → src/report/history-data.ts');
    expect(output).toContain('error page-data-types: page/review-main.ts → src/report/html-cut.ts');
    expect(output).not.toContain('page/history-main.ts');
  });

  it("lets a runner folder reach another only through its index.ts (the loop's public face, a feature's), and none the front door", () => {
    const { output } = lint;
    expect(output).toContain('error runner-public-face: src/runner/resume/kept.ts → src/runner/loop/verdict.ts');
    expect(output).toContain('error runner-public-face: src/runner/loop/trial.ts → src/runner/users/user.ts');
    expect(output).toContain('error runner-public-face: src/runner/start-run.ts → src/runner/rejudge/plan.ts');
    expect(output).toContain("a feature imports the loop's index.ts, never a loop module");
    expect(output).toContain('error runner-front-door-on-top: src/runner/shards/merge.ts → src/runner/start-run.ts');
    expect(output).not.toContain('src/runner/rejudge/plan.ts → src/runner/loop/index.ts');
    expect(output).not.toContain('src/runner/rejudge/plan.ts → src/runner/users/index.ts');
  });
});
