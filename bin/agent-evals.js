#!/usr/bin/env node
import { createRequire } from 'node:module';

// Required, not imported: an ES import of node:fs builds its facade, which loads the streams
// (src/core/builtin-require.ts).
const { existsSync, readFileSync } = createRequire(import.meta.url)('node:fs');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before anything of dist/ loads: start-up stays at Node's own. Same output as
  // commander's `-V, --version` (program.ts), which still answers it among other arguments.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // The published package always holds dist/ and carries no `prepare` script (npm warns about one on
  // install); a fresh clone of the repository has no dist/ until its first run builds it.
  if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
    const { buildCheckout } = await import('./build-checkout.js');
    buildCheckout(new URL('..', import.meta.url));
  }

  const { limitHeapGrowth } = await import('../dist/cli/heap-growth.js');
  limitHeapGrowth();
  const { ignoreClosedPipes, exitSoon } = await import('../dist/cli/process-end.js');
  ignoreClosedPipes();
  const { main } = await import('../dist/cli/main.js');
  await main();
  // The run is over: work a target left running cannot hold the exit code back.
  exitSoon();
}
