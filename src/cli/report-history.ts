import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { buildHistory } from '../report/history-data.js';
import { wroteLine } from '../report/wrote-lines.js';
import { historyFiles } from './history-files.js';
import { readHistory } from './history-read.js';
import { checkOutputs } from './output-check.js';

/**
 * `agent-evals report --history <folder or files...> -o history.html`: one page over many runs. Folder
 * files that are not results files are passed over with a warning on stderr (and listed on the page);
 * a named file that is not one, a missing path, or no results file at all is bad input (exit 2).
 */
export async function writeHistoryReport(args: readonly string[], output: string, cwd: string): Promise<void> {
  const flag = '--history';
  const files = await historyFiles(args, cwd, flag);
  const { digests, skipped } = await readHistory(files, cwd, flag);
  for (const s of skipped) process.stderr.write(`agent-evals: skipped ${s}\n`);
  if (!digests.length) throw new UserError(`no results files in ${args.join(', ')} (a folder's runs/<id>/results.json, its *.json files and its baselines/*.json are read)`, { field: flag });
  const { writeHistoryPage } = await import('../report/history-page.js');
  const out = resolve(cwd, output);
  await checkOutputs([{ path: out, kind: 'file', field: '--output' }], null);
  await writeHistoryPage(out, buildHistory(digests, skipped));
  process.stdout.write(`${wroteLine(out, cwd)}\n`);
}
