import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE_NAMES } from '../config/defaults.js';
import { EXAMPLE_EVAL, EXAMPLE_EVAL_PATH, GITIGNORE_ENTRY, configTemplate } from './init-templates.js';

type Outcome = 'created' | 'kept' | 'overwritten' | 'updated';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('scaffold evals.config, an example eval and a .gitignore entry in the working directory')
    .option('--force', 'overwrite the config and the example eval when they exist')
    .action((flags: { force?: boolean }) => {
      const dir = process.cwd();
      const force = flags.force === true;
      // An existing config of any supported name is the project's (--force rewrites that one): a
      // second config beside it would be ignored by the loader.
      const configName = CONFIG_FILE_NAMES.find((name) => existsSync(join(dir, name))) ?? `evals.config.${usesTypeScript(dir) ? 'ts' : 'mjs'}`;
      const lines = [
        `${scaffold(dir, configName, configTemplate(/\.m?ts$/.test(configName) ? 'ts' : 'mjs'), force)}  ${configName}`,
        `${scaffold(dir, EXAMPLE_EVAL_PATH, EXAMPLE_EVAL, force)}  ${EXAMPLE_EVAL_PATH}`,
        `${addGitignoreEntry(dir)}  .gitignore`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
      process.stdout.write('next: npm i -D agent-evals (if not installed yet), then npx agent-evals run\n');
    });
}

/** TypeScript when the project has a tsconfig.json or depends on `typescript`. */
function usesTypeScript(dir: string): boolean {
  if (existsSync(join(dir, 'tsconfig.json'))) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'peerDependencies'].some((key) => {
      const deps = pkg[key];
      return typeof deps === 'object' && deps !== null && 'typescript' in deps;
    });
  } catch {
    return false;
  }
}

function scaffold(dir: string, name: string, text: string, force: boolean): Outcome {
  const path = join(dir, name);
  const exists = existsSync(path);
  if (exists && !force) return 'kept';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return exists ? 'overwritten' : 'created';
}

/** Appends the entry only when missing; the user's own lines are never rewritten, not even with --force. */
function addGitignoreEntry(dir: string): Outcome {
  const path = join(dir, '.gitignore');
  if (!existsSync(path)) {
    writeFileSync(path, `${GITIGNORE_ENTRY}\n`);
    return 'created';
  }
  const text = readFileSync(path, 'utf8');
  const bare = GITIGNORE_ENTRY.replace(/\/$/, '');
  const listed = text.split(/\r?\n/).some((line) => [bare, `${bare}/`, `/${bare}`, `/${bare}/`].includes(line.trim()));
  if (listed) return 'kept';
  writeFileSync(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${GITIGNORE_ENTRY}\n`);
  return 'updated';
}
