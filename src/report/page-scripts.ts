import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One page script per kind of page (scripts/page-bundle.mjs lists each with its entry in page/). */
export type PageScriptName = 'PAGE_SCRIPT' | 'REVIEW_SCRIPT' | 'HISTORY_SCRIPT' | 'VIEW_SCRIPT' | 'DRAFTS_SCRIPT';

/**
 * The page scripts, bundled from page/ by `npm run build` (scripts/page-bundle.mjs) into
 * dist/, never committed. The same address from src/report/ (tests run the sources) and from
 * dist/report/: both sit two folders below the package's root.
 */
export const PAGE_SCRIPTS_FILE = fileURLToPath(new URL('../../dist/report/page-scripts.json', import.meta.url));

let scripts: Readonly<Record<PageScriptName, string>> | undefined;

/** One page's script (an IIFE inlined in its page; its sha256 goes into that page's CSP), read on first use. */
export function pageScript(name: PageScriptName): string {
  scripts ??= readScripts();
  return scripts[name];
}

function readScripts(): Record<PageScriptName, string> {
  let text: string;
  try {
    text = readFileSync(PAGE_SCRIPTS_FILE, 'utf8');
  } catch {
    throw new Error(`${PAGE_SCRIPTS_FILE} is missing: the report pages' scripts are built by \`npm run build\``);
  }
  return JSON.parse(text) as Record<PageScriptName, string>;
}
