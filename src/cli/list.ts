import type { Command } from 'commander';
import { prepareCases, type SelectionFlags } from './prepare.js';
import { collect, positiveInt } from './parse-number.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('print the cases a run would execute, without running anything')
    .argument('[paths...]', 'eval files or directories (default: the config globs)')
    .option('-c, --config <path>', 'config file (default: evals.config.{ts,mts,js,mjs})')
    .option('-f, --filter <glob>', 'only cases whose suite/id matches (repeatable)', collect)
    .option('-t, --tag <tag>', 'only cases with this tag (repeatable; all must match)', collect)
    .option('--exclude-tag <tag>', 'skip cases with this tag (repeatable)', collect)
    .option('-r, --repeat <n>', 'trials per case', positiveInt)
    .option('--json', 'print the list as JSON')
    .action(async (paths: string[], flags: SelectionFlags & { json?: boolean }) => {
      const { cases } = await prepareCases(paths, flags);
      if (flags.json) {
        const rows = cases.map((c) => ({ key: c.key, file: c.file, line: c.line, target: c.targetName, repeat: c.repeat, passRate: c.passRate, tags: c.tags }));
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      for (const c of cases) {
        const tags = c.tags.length ? `  [${c.tags.join(', ')}]` : '';
        process.stdout.write(`${c.key}  ×${c.repeat}  ${c.file}${c.line ? `:${c.line}` : ''}  → ${c.targetName}${tags}\n`);
      }
      const trials = cases.reduce((s, c) => s + c.repeat, 0);
      process.stdout.write(`${cases.length} case${cases.length === 1 ? '' : 's'}, ${trials} trial${trials === 1 ? '' : 's'}\n`);
    });
}
