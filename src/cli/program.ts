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
  for (const [name, register] of Object.entries(COMMANDS)) {
    // `run` is the default command: it is there for anything but `list`.
    if (wantsHelp || (name === 'run' ? command !== 'list' : command === name)) await register(program);
  }
  return program;
}

/** The commands, in the help's order; each module is imported only when its command is asked for. */
const COMMANDS: Record<string, (program: Command) => Promise<void>> = {
  list: async (p) => (await import('./list.js')).registerList(p),
  run: async (p) => (await import('./run.js')).registerRun(p, COMMAND_NAMES),
  redteam: async (p) => (await import('./redteam.js')).registerRedteam(p),
  compare: async (p) => (await import('./compare.js')).registerCompare(p),
  rejudge: async (p) => (await import('./rejudge.js')).registerRejudge(p),
  score: async (p) => (await import('./score.js')).registerScore(p),
  merge: async (p) => (await import('./merge.js')).registerMerge(p),
  calibrate: async (p) => (await import('./calibrate.js')).registerCalibrate(p),
  init: async (p) => (await import('./init.js')).registerInit(p),
  report: async (p) => (await import('./report.js')).registerReport(p),
  review: async (p) => (await import('./review.js')).registerReview(p),
  view: async (p) => (await import('./view.js')).registerView(p),
  import: async (p) => (await import('./import.js')).registerImport(p),
  generate: async (p) => (await import('./generate.js')).registerGenerate(p),
  doctor: async (p) => (await import('./doctor.js')).registerDoctor(p),
  'mcp-check': async (p) => (await import('./mcp-check.js')).registerMcpCheck(p),
};

const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);
