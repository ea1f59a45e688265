import { CommanderError } from 'commander';
import { ProviderConfigError, UserError, errorMessage } from '../core/errors.js';
import { buildProgram } from './program.js';
import { terminalSafe } from '../report/sanitize.js';
import { redactEnv } from './env-redact.js';

/**
 * The CLI entry: maps user errors to exit 2 with a plain message, never a stack trace. A message
 * may quote a file (a parser's excerpt of a results file, a line of a dataset): its control
 * characters are shown escaped (`\x1b`), never sent to the terminal.
 */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    // A provider misconfiguration (missing key, bad model spec) is bad input, like a file error.
    if (err instanceof UserError || err instanceof ProviderConfigError) {
      process.stderr.write(`agent-evals: ${terminalSafe(redactEnv(err.message, argv))}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`agent-evals: internal error: ${terminalSafe(redactEnv(err instanceof Error ? (err.stack ?? err.message) : errorMessage(err), argv))}\n`);
    process.exitCode = 1;
  }
}
