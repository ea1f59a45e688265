import type { Command } from 'commander';
import { addSelectionOptions, prepareCases, type SelectionFlags } from './prepare.js';
import { terminalSafe } from '../report/sanitize.js';
import { targetKindOf } from '../targets/config-schema.js';
import type { PlannedCase } from '../suite/plan.js';
import { draftsSkippedLine } from './draft-cases.js';

export function registerList(program: Command): void {
  addSelectionOptions(program.command('list').description('print the cases a run would execute, without running anything'), 'trials per case')
    .option('--json', 'print the list as JSON')
    .action(async (paths: string[], flags: SelectionFlags & { json?: boolean }) => {
      // Drafts alone are listed (with their mark), where a run refuses them.
      const { config, cases, shard, drafts } = await prepareCases(paths, { ...flags, draftsAlone: true });
      if (flags.json) {
        // A draft is listed with `draft: true`; `skipped` when this selection's run would not run it (no --include-drafts).
        const row = (c: PlannedCase, skipped: boolean) => ({
          key: c.key,
          file: c.file,
          line: c.line,
          target: c.targetName,
          repeat: c.repeat,
          passRate: c.passRate,
          tags: c.tags,
          ...(c.draft ? { draft: true, ...(skipped ? { skipped: true } : {}) } : {}),
        });
        process.stdout.write(JSON.stringify([...cases.map((c) => row(c, false)), ...drafts.map((c) => row(c, true))], null, 2) + '\n');
        return;
      }
      // Written in blocks, not a line at a time: to a file or pipe each write is a system call, and a large dataset lists 300,000 cases.
      let block = '';
      for (const c of cases) {
        const tags = c.tags.length ? `  [${c.tags.join(', ')}]` : '';
        // Ids and tags come from eval files: control and bidi characters are shown, not obeyed.
        block += `${terminalSafe(`${c.key}  ×${c.repeat}  ${c.file}${c.line ? `:${c.line}` : ''}  → ${c.targetName}${tags}${c.draft ? '  (draft)' : ''}`)}\n`;
        if (block.length >= 65_536) {
          process.stdout.write(block);
          block = '';
        }
      }
      if (block) process.stdout.write(block);
      const trials = cases.reduce((s, c) => s + c.repeat, 0);
      const part = shard ? ` (shard ${shard.index}/${shard.total} of ${shard.plan.cases} cases, ${shard.plan.trials} trials)` : '';
      process.stdout.write(`${cases.length} case${cases.length === 1 ? '' : 's'}, ${trials} trial${trials === 1 ? '' : 's'}${part}\n`);
      // The drafts a run skips, after the cases it runs: listed, never counted with them.
      if (drafts.length) {
        let text = '';
        for (const c of drafts) text += `${terminalSafe(`${c.key}  ${c.file}${c.line ? `:${c.line}` : ''}  (draft, skipped)`)}\n`;
        process.stdout.write(`\n${text}${draftsSkippedLine(drafts)}\n`);
      }
      // Only a suite with an mcp target pays for this (its module loads the MCP client on use).
      if (Object.values(config.targets).some((t) => targetKindOf(t) === 'mcp')) process.stdout.write(await (await import('./list-mcp-tools.js')).mcpToolsText(config, cases));
    });
}
