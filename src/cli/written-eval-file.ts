import { UserError } from '../core/errors.js';
import { EVAL_FILE } from '../suite/discover.js';

/**
 * Checks of an eval file a command writes (`generate --out`, `score --save-failures`, `import`), made
 * before anything is written: a file `list` and `run` would not load, or would refuse, helps no one.
 */

/** The file name: a YAML eval file as `run` finds them (`*.eval.yaml` / `*.eval.yml`), else bad input for `field`. */
export function checkYamlEvalFileName(path: string, shown: string, field: string): void {
  if (!EVAL_FILE.test(path) || !/\.ya?ml$/.test(path)) throw new UserError('not a YAML eval file name (expected *.eval.yaml or *.eval.yml, so `list` and `run` load it)', { file: shown, field });
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
