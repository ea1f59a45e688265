import { stat } from 'node:fs/promises';
import { UserError, errorMessage } from '../core/errors.js';
import { writeNewFile } from '../report/new-file.js';
import { EVAL_FILE } from '../suite/discover.js';

/**
 * Checks of an eval file a command writes (`generate --out`, `score --save-failures`, `import --out`,
 * `redteam --save`), made before anything is written: a file `list` and `run` would not load, or would
 * refuse, helps no one; and written cases are meant to be edited, so a file is never replaced.
 */

/** The file name: a YAML eval file as `run` finds them (`*.eval.yaml` / `*.eval.yml`), else bad input for `field`. */
export function checkYamlEvalFileName(path: string, shown: string, field: string): void {
  if (!EVAL_FILE.test(path) || !/\.ya?ml$/.test(path)) throw new UserError('not a YAML eval file name (expected *.eval.yaml or *.eval.yml, so `list` and `run` load it)', { file: shown, field });
}

/** A new eval file for `field`: the name `run` loads, and nothing there yet. `what` names the cases (`drafts`, `saved cases`). */
export async function checkNewEvalFile(path: string, shown: string, field: string, what: string): Promise<void> {
  checkYamlEvalFileName(path, shown, field);
  await refuseExistingEvalFile(path, shown, field, what);
}

/** Nothing at `path` yet: written cases are meant to be edited, so a file is never replaced. */
export async function refuseExistingEvalFile(path: string, shown: string, field: string, what: string): Promise<void> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (exists) throw new UserError(`already exists: choose another ${field}, or remove it (${what} are meant to be edited, so a file is never replaced)`, { file: shown, field });
}

/**
 * Writes the eval file whole or not at all; one that appeared since `checkNewEvalFile` (`during`: while
 * what happened) is not replaced either.
 */
export async function writeNewEvalFile(path: string, shown: string, field: string, text: string, during: string): Promise<void> {
  let written: boolean;
  try {
    written = await writeNewFile(path, text);
  } catch (err) {
    throw new UserError(`cannot write it: ${errorMessage(err)}`, { file: shown, field });
  }
  if (!written) throw new UserError(`appeared while ${during}: nothing replaced; choose another ${field}`, { file: shown, field });
}

/**
 * The `--target` of the written cases: a file naming a target the config lacks makes `list` and `run`
 * of the whole project exit 2. `what` names the written cases in the message.
 */
export function checkWrittenTarget(target: string, configured: readonly string[], what: string): void {
  if (configured.includes(target)) return;
  const known = configured.length ? configured.map((k) => `"${k}"`).join(', ') : 'none';
  throw new UserError(`unknown target "${target}" for ${what} (configured: ${known}): give --target <name>`, { field: '--target' });
}
