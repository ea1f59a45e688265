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
 * agent-evals run`), with the checkout's own TypeScript and bundler. Their output goes to stderr:
 * stdout is the run's.
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
  // As `npm run build` does: the report pages' scripts (scripts/page-bundle.mjs, when the checkout
  // has pages), then tsc.
  const pages = new URL('scripts/page-bundle.mjs', rootUrl);
  const steps = [...(existsSync(pages) ? [[fileURLToPath(pages)]] : []), [tsc, '-p', 'tsconfig.json']];
  for (const step of steps) {
    const built = spawnSync(process.execPath, step, { cwd: root, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) stop('building dist/ failed (the errors are above; `npm run build` shows them again)', 1);
  }
}
