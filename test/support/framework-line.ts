/**
 * Which framework line this checkout has installed: the root project holds the previous majors (run on
 * Node 20), the copy `npm run test:lines` makes (scripts/lines.mjs) the newest (run on Node 22 and 24).
 * Tests that only one line can run say so with `describe.runIf(onNewestLine)`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** The installed major version of a package in this checkout's node_modules, undefined when absent. */
export function installedMajor(pkg: string): number | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
    return Number(version.split('.')[0]);
  } catch {
    return undefined;
  }
}

/** The newest line is installed: AI SDK 7 and the framework majors released with it (lines/newest.json). */
export const onNewestLine = (installedMajor('ai') ?? 0) >= 7;
