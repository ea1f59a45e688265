import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { listenFailure, portArg, untilStopped } from './local-serve.js';

/**
 * `agent-evals view [dir]`: serves the output folder's runs on 127.0.0.1 under a random token (like
 * `review`): the run list, each run's report with its raw trials in full, two runs compared, the
 * history. Ctrl-C stops it (exit 0: it writes nothing).
 */
export function registerView(program: Command): void {
  program
    .command('view')
    .description('browse every run of an output folder locally: run list, reports with full traces, two runs compared, history (Ctrl-C to stop; exit 0 stopped, 2 bad input)')
    .argument('[dir]', "the output folder (default: the config's outputDir, .agent-evals)")
    .option('--port <n>', 'the port on 127.0.0.1 (default: any free port)', portArg)
    .option('--no-open', 'print the address only; do not open a browser (never opened in CI or without a display)')
    .option('-c, --config <path>', `the config whose outputDir is served when no dir is given (default: ${CONFIG_FILES_HELP})`)
    .action(async (dirArg: string | undefined, flags: { port?: number; open: boolean; config?: string }) => {
      const cwd = process.cwd();
      if (dirArg !== undefined && flags.config !== undefined) throw new UserError('give the folder or --config (whose outputDir is served), not both', { field: '--config' });
      const outputDir = dirArg !== undefined ? resolve(cwd, dirArg) : (await (await import('./prepare.js')).loadConfigFromFlags(flags, cwd)).outputDir;
      const shown = relative(cwd, outputDir) || outputDir;
      const info = await stat(outputDir).catch(() => undefined);
      if (!info?.isDirectory()) throw new UserError('no such folder: `agent-evals run` writes its runs to the outputDir (default .agent-evals)', { file: shown, field: '[dir]' });

      const [{ viewSource }, { startViewServer }, { runFoldersWithResults }, { browserCommand, openBrowser }] = await Promise.all([
        import('./view-source.js'),
        import('../report/view-server.js'),
        import('../report/run-folders.js'),
        import('./open-browser.js'),
      ]);
      const server = await startViewServer(viewSource(outputDir, cwd), flags.port ?? 0).catch(listenFailure(flags.port));
      // The address holds the token: printed once, on stdout only.
      process.stdout.write(`${server.url}\n`);
      const runs = (await runFoldersWithResults(outputDir)).length;
      process.stderr.write(`Viewing ${runs} run${runs === 1 ? '' : 's'} of ${shown} (new runs show on reload). Ctrl-C to stop.\n`);
      const how = flags.open ? browserCommand(process.env, process.platform, Boolean(process.stdout.isTTY)) : { none: '--no-open' };
      if ('command' in how) openBrowser(server.url, how, (line) => process.stderr.write(`agent-evals: ${line}\n`));
      await untilStopped();
      await server.close();
      process.stderr.write('\nView stopped\n');
    });
}
