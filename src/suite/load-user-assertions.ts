import { resolve } from 'node:path';
import { UserError, UserErrors } from '../core/errors.js';
import { userAssertionOf, type UserAssertion } from '../assertions/user-assertion.js';
import { allAssertionTypes } from './assertion-types.js';
import { importUserModule } from './import-module.js';

/** Names a user assertion cannot take: every built-in type, and the two TypeScript-only spec types. */
const RESERVED = new Set([...allAssertionTypes, 'custom', 'userAssertion']);

/**
 * Imports the config's `assertions` modules (paths relative to the config's folder) and checks each
 * default export. A bad module, or a name a built-in or another module already has, is a user error
 * naming the config file and the entry (exit 2).
 */
export async function loadUserAssertions(paths: readonly string[], rootDir: string, configFile: string | undefined, timeoutMs?: number): Promise<UserAssertion[]> {
  const out: UserAssertion[] = [];
  const errors: UserError[] = [];
  for (const [i, path] of paths.entries()) {
    const where = { ...(configFile ? { file: configFile } : {}), field: `assertions[${i}]` };
    // A module that cannot be imported is a user error naming it (import-module.ts); the entry that
    // lists it is said too, as for every other problem of an entry.
    let loaded: unknown;
    try {
      loaded = await importUserModule(resolve(rootDir, path), path, timeoutMs);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      errors.push(new UserError(err.message, where));
      continue;
    }
    const found = userAssertionOf(loaded);
    if (typeof found === 'string') errors.push(new UserError(`${path}: ${found}`, where));
    else if (RESERVED.has(found.name)) errors.push(new UserError(`${path}: "${found.name}" is the name of a built-in assertion; give yours another name`, where));
    else if (out.some((a) => a.name === found.name)) errors.push(new UserError(`${path}: "${found.name}" is already the name of an earlier module's assertion`, where));
    else out.push(found);
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
  return out;
}
