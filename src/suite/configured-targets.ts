/**
 * The configured targets as an error about an unknown one names them; with none, where to add them:
 * the config file the run read (a project `init` scaffolded has `evals.config.mjs`), else a new one.
 */
export function configuredTargets(names: readonly string[], configFile: string | null | undefined): string {
  if (names.length > 0) return names.join(', ');
  return configFile ? `none: add \`targets\` to ${configFile}` : 'none: add `targets` to a config file, evals.config.ts';
}
