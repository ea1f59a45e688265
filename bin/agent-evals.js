#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs; Node 20 has no such cache and starts a little slower.
module.enableCompileCache?.();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before anything of dist/ loads. Same output as commander's `-V, --version` (program.ts),
  // which still answers it among other arguments.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // The published package always holds dist/ and carries no `prepare` script (npm warns about one on
  // install); a fresh clone of the repository has no dist/ until its first run builds it.
  if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
    const { buildCheckout } = await import('./build-checkout.js');
    buildCheckout(new URL('..', import.meta.url));
  }

  const { ignoreClosedPipes, exitSoon, killOnStuckLoad } = await import('../dist/cli/process-end.js');
  ignoreClosedPipes();
  killOnStuckLoad();
  const { main } = await import('../dist/cli/main.js');
  await main();
  // The run is over: work a target left running cannot hold the exit code back.
  exitSoon();
}
