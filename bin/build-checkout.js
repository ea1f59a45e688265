import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

function stop(message, code) {
  process.stderr.write(`agent-evals: ${message}\n`);
  process.exit(code);
}

/**
 * Builds dist/ from src/ in a checkout of the repository (the quick start is `npm ci && npx
 * agent-evals run`), with the checkout's own TypeScript. tsc's output goes to stderr: stdout is
 * the run's.
 */
export function buildCheckout(rootUrl) {
  const root = fileURLToPath(rootUrl);
  if (!existsSync(new URL('src/cli/main.ts', rootUrl))) stop('dist/ is missing from the installed package: reinstall agent-evals', 2);
  let tsc;
  try {
    tsc = createRequire(new URL('package.json', rootUrl)).resolve('typescript/bin/tsc');
  } catch {
    stop('dist/ is not built and TypeScript is not installed: run `npm ci`, then `npm run build`', 2);
  }
  process.stderr.write('agent-evals: building dist/ from src/ (first run in this checkout)\n');
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (built.status !== 0) stop('building dist/ failed (the errors are above; `npm run build` shows them again)', 1);
  // As `npm run build` does next: the entries joined with what they load (scripts/bundle.mjs), when
  // the checkout has that step (dist/ as tsc wrote it runs as well, from more files).
  const bundle = new URL('scripts/bundle.mjs', rootUrl);
  if (!existsSync(bundle)) return;
  const joined = spawnSync(process.execPath, [fileURLToPath(bundle)], { cwd: root, stdio: ['ignore', 2, 2] });
  if (joined.status !== 0) stop('building dist/ failed (the errors are above; `npm run build` shows them again)', 1);
}
