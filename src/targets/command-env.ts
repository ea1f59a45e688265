/**
 * The environment of a command target: not the runner's (which holds provider keys), but a few
 * variables a program needs to start and find its tools, plus what the target's config passes.
 */

/**
 * Copied from the runner's environment when a command target sets no `inheritEnv`: where programs
 * are, who and where the user is, locale, terminal, temp dir and time zone (and Windows' equivalents).
 * No keys, tokens or passwords.
 */
export const DEFAULT_INHERIT_ENV: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
];

/**
 * `inheritEnv` (else the defaults) copied from `parent` where set, then `env` on top. A listed
 * `inheritEnv` replaces the defaults, so a target can be given exactly what it names.
 */
export function commandEnv(opts: { env?: Record<string, string>; inheritEnv?: readonly string[] }, parent: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of opts.inheritEnv ?? DEFAULT_INHERIT_ENV) {
    const value = parent[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, ...opts.env };
}
