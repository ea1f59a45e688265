import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { closestName } from '../core/closest-name.js';
import { UserError } from '../core/errors.js';

/**
 * `run` is the default command, so a misspelt command (`agent-evals rnu`) arrives as a path to run.
 * A bare word that is no file and is near a command's name is bad input naming that command, rather
 * than "no such file or directory".
 */
export function checkMistypedCommand(paths: readonly string[], commands: readonly string[], cwd: string): void {
  const word = paths[0];
  if (word === undefined || !/^[a-z][a-z-]*$/i.test(word) || existsSync(resolve(cwd, word))) return;
  const command = closestName(word, commands);
  if (command) throw new UserError(`no command or file "${word}": did you mean the command "${command}"? (see agent-evals --help)`);
}
