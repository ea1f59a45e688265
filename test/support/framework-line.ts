/**
 * Which framework line this checkout has installed: the root project holds the previous majors (run on
 * Node 20), the copy `npm run test:lines` makes (scripts/lines.mjs) the newest (run on Node 22 and 24).
 * Tests that only one line can run say so with `describe.runIf(onNewestLine)`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type OpenAI from 'openai';

const ROOT = join(import.meta.dirname, '../..');

/** The installed version of a package in this checkout's node_modules as [major, minor, patch], undefined when absent. */
export function installedVersion(pkg: string): [number, number, number] | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
    const [major = 0, minor = 0, patch = 0] = version.split('-')[0]!.split('.').map(Number);
    return [major, minor, patch];
  } catch {
    return undefined;
  }
}

/** The installed major version of a package in this checkout's node_modules, undefined when absent. */
export function installedMajor(pkg: string): number | undefined {
  return installedVersion(pkg)?.[0];
}

/** The newest line is installed: AI SDK 7 and the framework majors released with it (lines/newest.json). */
export const onNewestLine = (installedMajor('ai') ?? 0) >= 7;

/**
 * Where the `openai` of a user's project on this line is: on the newest line openai 7, the copy the
 * Agents SDK uses, linked at examples/node_modules/openai (lines/newest.json `links`) because agent-evals'
 * own openai 6 holds node_modules/openai; on the previous line the root's openai 6, which is also the
 * SDK's there.
 */
export const userOpenAIDir = realpathSync(existsSync(join(ROOT, 'examples/node_modules/openai')) ? join(ROOT, 'examples/node_modules/openai') : join(ROOT, 'node_modules/openai'));

/** The version of the user's `openai` (userOpenAIDir), which its clients send as X-Stainless-Package-Version. */
export const userOpenAIVersion = (JSON.parse(readFileSync(join(userOpenAIDir, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The user's `OpenAI` class (userOpenAIDir), loaded as that project would (its ESM entry). Typed as
 * agent-evals' own openai: tests are type-checked on the previous line only, where the two are one.
 */
export async function userOpenAI(): Promise<typeof OpenAI> {
  const mod = (await import(pathToFileURL(join(userOpenAIDir, 'index.mjs')).href)) as { default: typeof OpenAI };
  return mod.default;
}
