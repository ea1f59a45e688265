import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (no import of the rest of the CLI). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
