import { UserError } from '../core/errors.js';

/**
 * The `--target` of cases a command writes into an eval file (`import`, `score --save-failures`),
 * checked before anything is written: a file naming a target the config lacks makes `list` and `run`
 * of the whole project exit 2. `what` names the written cases in the message.
 */
export function checkWrittenTarget(target: string, configured: readonly string[], what: string): void {
  if (configured.includes(target)) return;
  const known = configured.length ? configured.map((k) => `"${k}"`).join(', ') : 'none';
  throw new UserError(`unknown target "${target}" for ${what} (configured: ${known}): give --target <name>`, { field: '--target' });
}
