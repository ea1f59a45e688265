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
  beforeAll(() => {
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
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a back-edge, naming the file, the import and the rule; downward edges pass', async () => {
    const { code, output } = await lintImports(dir);
    expect(code).not.toBe(0);
    expect(output).toContain('error floor-core: src/core/port.ts → src/runner/plan.ts');
    expect(output).toContain('src/core/ imports nothing of ours outside itself');
    expect(output).toContain('error floor-report: src/report/json.ts → src/suite/load.ts');
    expect(output).toContain('src/report/ may import only core/');
    expect(output).toMatch(/\b2 dependency violations\b/);
  });
});
