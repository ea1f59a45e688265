/**
 * The lighter install (issue 24): OpenTelemetry is an optional peer dependency, so `otel: true`
 * in a project without it stops the run with exit 2 naming the packages to install, and so is
 * `@google/genai` for the google provider; the published
 * package.json has no `prepare` script; a checkout without dist/ builds it on the CLI's first run.
 * Runs dist/ (build first). Every test is a process of its own in a folder of its own: they run at once.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { packedPackage } from '../support/process-pack.js';

afterAll(removeTempDirs);

const run = promisify(execFile);

/**
 * `node <args>` in `cwd`, to its end, whatever its exit code. Not spawnSync: the tests here run at
 * once (each its own folder and process), and a synchronous spawn would hold the others back.
 */
function node(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The package as installed (dist, bin, package.json) beside every dependency of the repo but the packages under `scope`. */
function projectWithout(scope: string): string {
  const dir = tempDir('agent-evals-no-optional-');
  const pkg = join(dir, 'node_modules', 'agent-evals');
  mkdirSync(pkg, { recursive: true });
  // Copied, not linked: a link would resolve imports from the repo, where the packages are installed.
  for (const part of ['dist', 'bin', 'package.json']) cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (name === scope || name === '.bin' || name.startsWith('.')) continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "type": "module" }\n');
  return dir;
}

const projectWithoutOtel = () => projectWithout('@opentelemetry');

let withoutOtel: string | undefined;

/**
 * A project folder of its own inside the one install without OpenTelemetry (copied once per file):
 * Node finds the package and its dependencies in the node_modules above it.
 */
function projectInInstallWithoutOtel(): string {
  withoutOtel ??= projectWithoutOtel();
  return mkdtempSync(join(withoutOtel, 'project-'));
}

describe.concurrent('the OpenTelemetry packages are optional', () => {
  it('otel: true without them installed exits 2 naming what to install', async () => {
    const dir = projectInInstallWithoutOtel();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { traced: { function: async () => 'hi', otel: true } } };\n");
    writeFileSync(join(dir, 'hello.eval.yaml'), 'suite: hello\ntarget: traced\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n');
    const cli = join(withoutOtel!, 'node_modules', 'agent-evals', 'bin', 'agent-evals.js');
    const result = await node([cli, 'run'], dir);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('npm i -D @opentelemetry/api @opentelemetry/sdk-trace-base @opentelemetry/context-async-hooks');
    expect(result.stderr).toContain('targets.traced.otel');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('a target without otel runs in that project (nothing else loads OpenTelemetry)', async () => {
    const dir = projectInInstallWithoutOtel();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { plain: { function: async () => 'hi' } } };\n");
    writeFileSync(join(dir, 'hello.eval.yaml'), 'suite: hello\ntarget: plain\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n');
    const cli = join(withoutOtel!, 'node_modules', 'agent-evals', 'bin', 'agent-evals.js');
    const result = await node([cli, 'run'], dir);
    expect(result.status, result.stderr + result.stdout).toBe(0);
  });

  it('package.json declares them as optional peer dependencies, not dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const name of ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks']) {
      expect(pkg.dependencies).not.toHaveProperty([name]);
      expect(pkg.peerDependencies).toHaveProperty([name]);
      expect(pkg.peerDependenciesMeta).toHaveProperty([name], { optional: true });
    }
  });
});

describe.concurrent('@google/genai is optional', () => {
  it('a google target without it installed exits 2 before any call, naming what to install', async () => {
    const root = projectWithout('@google');
    const dir = mkdtempSync(join(root, 'project-'));
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      "export default { evals: ['*.eval.yaml'], targets: { gem: { model: { provider: 'google', model: 'gemini-3.8-flash', baseURL: 'http://127.0.0.1:9' } } } };\n",
    );
    writeFileSync(join(dir, 'hello.eval.yaml'), 'suite: hello\ntarget: gem\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n');
    const cli = join(root, 'node_modules', 'agent-evals', 'bin', 'agent-evals.js');
    const result = await node([cli, 'run'], dir, { GEMINI_API_KEY: 'test-key' });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('google:gemini-3.8-flash needs the @google/genai package, which is not installed; run: npm i -D @google/genai');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('package.json declares it as an optional peer dependency and a devDependency', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg.dependencies).not.toHaveProperty(['@google/genai']);
    expect(pkg.peerDependencies).toHaveProperty(['@google/genai']);
    expect(pkg.peerDependenciesMeta).toHaveProperty(['@google/genai'], { optional: true });
    expect(pkg.devDependencies).toHaveProperty(['@google/genai']);
  });
});

/** The package as installed beside every dependency of the repo but the Bedrock SDK (the Anthropic scope's other packages kept). */
function projectWithoutBedrockSdk(): string {
  const dir = tempDir('agent-evals-no-bedrock-');
  const pkg = join(dir, 'node_modules', 'agent-evals');
  mkdirSync(pkg, { recursive: true });
  for (const part of ['dist', 'bin', 'package.json']) cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (name === '.bin' || name.startsWith('.') || name === '@anthropic-ai') continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  mkdirSync(join(dir, 'node_modules', '@anthropic-ai'));
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules', '@anthropic-ai'))) {
    if (name !== 'bedrock-sdk') symlinkSync(join(REPO_ROOT, 'node_modules', '@anthropic-ai', name), join(dir, 'node_modules', '@anthropic-ai', name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "type": "module" }\n');
  return dir;
}

describe.concurrent('the cloud SDKs are optional', () => {
  it('a bedrock target without @anthropic-ai/bedrock-sdk installed exits 2 naming what to install, before any call', async () => {
    const dir = projectWithoutBedrockSdk();
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { claude: { model: 'bedrock:anthropic.claude-haiku-4-5-20251001-v1:0' } } };\n");
    writeFileSync(join(dir, 'hello.eval.yaml'), 'suite: hello\ntarget: claude\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: contains, value: hi }\n');
    const result = await node([join(dir, 'node_modules', 'agent-evals', 'bin', 'agent-evals.js'), 'run'], dir);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('bedrock:anthropic.claude-haiku-4-5-20251001-v1:0 needs the @anthropic-ai/bedrock-sdk package, which is not installed; run: npm i -D @anthropic-ai/bedrock-sdk');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('package.json declares them as optional peer dependencies, not dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const name of ['@anthropic-ai/bedrock-sdk', '@anthropic-ai/vertex-sdk']) {
      expect(pkg.dependencies).not.toHaveProperty([name]);
      expect(pkg.peerDependencies).toHaveProperty([name]);
      expect(pkg.peerDependenciesMeta).toHaveProperty([name], { optional: true });
    }
  });
});

describe.concurrent('the published package', () => {
  it("the tarball's package.json has no prepare script", async () => {
    const { tarball } = await packedPackage();
    const manifest = JSON.parse((await run('tar', ['-xOzf', tarball, 'package/package.json'])).stdout) as { name: string; scripts?: Record<string, string> };
    expect(manifest.name).toBe('agent-evals');
    expect(manifest.scripts ?? {}).not.toHaveProperty(['prepare']);
    expect(manifest.scripts ?? {}).not.toHaveProperty(['prepack']);
  });
});

describe.concurrent('npm ci in the repository', () => {
  it('resolves the lockfile with no ERESOLVE (peer dependency) warning, offline', async () => {
    // A dry run with an empty cache reads every peer edge from the lockfile: it printed the
    // @mastra/core zod/ai conflicts before package.json's overrides, without touching the network.
    const dir = tempDir('agent-evals-ci-');
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(REPO_ROOT, file), join(dir, file));
    const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund', '--cache', join(dir, 'cache')], {
      cwd: dir,
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(stdout).toMatch(/added \d+ packages/);
    expect(stderr).not.toContain('ERESOLVE');
    expect(stderr).not.toMatch(/^npm warn/m);
  });
});

describe.concurrent('a checkout without dist/', () => {
  /**
   * A miniature checkout: the real launcher and tsconfig shape (ES2023 lib, skipLibCheck), a tiny
   * src/cli with the launcher's modules, and a stand-in for the page-bundle script. Without @types/node, main.ts declares the console it uses.
   */
  function miniCheckout(withTypeScript: boolean): string {
    const dir = tempDir('agent-evals-checkout-');
    cpSync(join(REPO_ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "name": "agent-evals", "type": "module" }\n');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', lib: ['es2023'], skipLibCheck: true, outDir: 'dist', rootDir: 'src', strict: true, types: [] }, include: ['src'] }),
    );
    mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
    writeFileSync(join(dir, 'src', 'cli', 'process-end.ts'), 'export function ignoreClosedPipes(): void {}\nexport function exitSoon(): void {}\nexport function killOnStuckLoad(): void {}\n');
    writeFileSync(join(dir, 'src', 'cli', 'main.ts'), "declare const console: { log(line: string): void };\nexport async function main(): Promise<void> {\n  console.log('ran from dist');\n}\n");
    // The page-bundle step as the checkout's own script: it writes the built pages' file into dist/.
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(
      join(dir, 'scripts', 'page-bundle.mjs'),
      "import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('dist/report', { recursive: true });\nwriteFileSync('dist/report/page-scripts.json', '{}');\n",
    );
    mkdirSync(join(dir, 'node_modules'));
    if (withTypeScript) symlinkSync(join(REPO_ROOT, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript'), 'dir');
    return dir;
  }

  it('the first run builds dist/ with the checkout’s TypeScript, then runs it; stdout stays the run’s', async () => {
    const dir = miniCheckout(true);
    const result = await node([join(dir, 'bin', 'agent-evals.js')], dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('ran from dist\n');
    expect(result.stderr).toContain('building dist/ from src/');
    expect(existsSync(join(dir, 'dist', 'cli', 'main.js'))).toBe(true);
    // The report pages' scripts are built too, as `npm run build` builds them.
    expect(existsSync(join(dir, 'dist', 'report', 'page-scripts.json'))).toBe(true);
    // Built once: the next run starts from dist/ without building.
    const again = await node([join(dir, 'bin', 'agent-evals.js')], dir);
    expect(again.stdout).toBe('ran from dist\n');
    expect(again.stderr).not.toContain('building');
  });

  it('without TypeScript installed it exits 2 saying to run npm ci', async () => {
    const dir = miniCheckout(false);
    const result = await node([join(dir, 'bin', 'agent-evals.js')], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('run `npm ci`, then `npm run build`');
  });
});
