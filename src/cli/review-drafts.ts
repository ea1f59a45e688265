import { relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { DraftAction, DraftOutcome } from '../core/draft-review.js';
import { listenFailure, untilStopped } from './local-serve.js';

export interface ReviewDraftsFlags {
  config?: string;
  port?: number;
}

/**
 * `agent-evals review <file.eval.yaml>`: serves the drafts page for one YAML eval file until Ctrl-C.
 * Each action reads the file again (another editor may have changed it), changes the one case it
 * names through the YAML document (comments and other cases kept), validates the result as `run`
 * loads a file (the config's user assertions included) and writes it atomically; a refused edit
 * leaves the file as it was.
 */
export async function reviewDrafts(fileArg: string, flags: ReviewDraftsFlags, cwd = process.cwd()): Promise<void> {
  const path = resolve(cwd, fileArg);
  const shown = relative(cwd, path) || path;
  const [{ readEvalFileBytes }, { draftItems, applyDraftAction }, { parseEvalFile }, { writeAtomic }, { startDraftsServer }, { loadConfigFromFlags }] = await Promise.all([
    import('../suite/eval-file-bytes.js'),
    import('../suite/draft-edits.js'),
    import('../suite/load-yaml.js'),
    import('../report/atomic-write.js'),
    import('../report/drafts-server.js'),
    import('./prepare.js'),
  ]);
  const config = await loadConfigFromFlags(flags, cwd);
  const read = async (): Promise<string> => (await readEvalFileBytes(path, shown)).toString('utf8');
  // The file as `run` would load it: a file that does not load is exit 2 here, before anything is served.
  const text = await read();
  await parseEvalFile(text, shown, config.userAssertions);
  const initial = draftItems(text);
  if (initial.length === 0) throw new UserError('no draft cases to review (none has `draft: true`)', { file: shown });

  const act = async (action: DraftAction): Promise<DraftOutcome> => {
    const now = await read();
    const edit = applyDraftAction(now, action);
    if (!edit.ok) return edit;
    try {
      await parseEvalFile(edit.text, shown, config.userAssertions);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      return { ok: false, why: 'invalid', message: err.message };
    }
    await writeAtomic(path, (w) => w(edit.text));
    return { ok: true, drafts: draftItems(edit.text), done: edit.done };
  };

  const server = await startDraftsServer({ file: shown, drafts: async () => draftItems(await read()), act, port: flags.port ?? 0 }).catch(listenFailure(flags.port));
  // The address holds the token: printed once, on stdout only.
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`Reviewing ${initial.length} draft case${initial.length === 1 ? '' : 's'} of ${shown}: accept, edit or reject each; every action rewrites the file. Ctrl-C to stop.\n`);
  await untilStopped();
  await server.close();
  const c = server.counts();
  const left = draftItems(await read().catch(() => '')).length;
  process.stderr.write(`\nReview stopped: ${c.accepted} accepted, ${c.edited} edited, ${c.rejected} rejected; ${left} draft${left === 1 ? '' : 's'} left in ${shown}\n`);
}
