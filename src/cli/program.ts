import { Command } from 'commander';
import { packageVersion } from './version.js';
import { redactEnv } from './env-redact.js';

/** The commander program; each command's module is loaded only when that command runs. */
export async function buildProgram(argv: string[]): Promise<Command> {
  const program = new Command('agent-evals')
    .description('Eval runner for LLM agents: deterministic gates first, LLM judges, pass-rate verdicts.')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    // Commander echoes a bad argument in its error: a key typed in the wrong place must not reach the terminal.
    .configureOutput({ outputError: (text, write) => write(redactEnv(text, argv)) });
  const command = argv.find((a) => !a.startsWith('-'));
  const wantsHelp = argv.includes('--help') || argv.includes('-h') || command === 'help';
  // `--version` needs no command module at all: start-up stays at Node's own.
  if (!command && !wantsHelp && (argv.includes('--version') || argv.includes('-V'))) return program;
  if (command === 'list' || wantsHelp) (await import('./list.js')).registerList(program);
  if (command !== 'list' || wantsHelp) (await import('./run.js')).registerRun(program);
  if (command === 'redteam' || wantsHelp) (await import('./redteam.js')).registerRedteam(program);
  if (command === 'compare' || wantsHelp) (await import('./compare.js')).registerCompare(program);
  if (command === 'rejudge' || wantsHelp) (await import('./rejudge.js')).registerRejudge(program);
  if (command === 'score' || wantsHelp) (await import('./score.js')).registerScore(program);
  if (command === 'merge' || wantsHelp) (await import('./merge.js')).registerMerge(program);
  if (command === 'calibrate' || wantsHelp) (await import('./calibrate.js')).registerCalibrate(program);
  if (command === 'init' || wantsHelp) (await import('./init.js')).registerInit(program);
  if (command === 'report' || wantsHelp) (await import('./report.js')).registerReport(program);
  if (command === 'review' || wantsHelp) (await import('./review.js')).registerReview(program);
  if (command === 'view' || wantsHelp) (await import('./view.js')).registerView(program);
  if (command === 'import' || wantsHelp) (await import('./import.js')).registerImport(program);
  if (command === 'generate' || wantsHelp) (await import('./generate.js')).registerGenerate(program);
  if (command === 'doctor' || wantsHelp) (await import('./doctor.js')).registerDoctor(program);
  if (command === 'mcp-check' || wantsHelp) (await import('./mcp-check.js')).registerMcpCheck(program);
  return program;
}
