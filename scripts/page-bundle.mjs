// Bundles the HTML report's browser code (page/, typed against the DOM by page/tsconfig.json) into one IIFE
// per page and writes them as dist/report/page-scripts.json, by name, which src/report/page-scripts.ts
// reads at run time (from src/ in the tests as from dist/). `npm run build` runs this; nothing
// generated is committed. The page's CSP carries the script's sha256 (src/report/html-page.ts), so
// the script's text is the contract: no minify, a fixed target.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED = join(root, 'dist', 'report', 'page-scripts.json');
/**
 * One page script per kind of page: its name (src/report/page-scripts.ts' PageScriptName), and its
 * entry file in page/. A new kind of page adds a line here and a name there; html-page.ts
 * (or its own writer) inlines the script and hashes it into that page's CSP.
 */
export const PAGE_ENTRIES = [
  { name: 'PAGE_SCRIPT', entry: 'main.ts', about: "the run report's page script (report.html)" },
  { name: 'REVIEW_SCRIPT', entry: 'review-main.ts', about: "the review page's script (`agent-evals review`: labels trials, posts each label to its own server)" },
  { name: 'HISTORY_SCRIPT', entry: 'history-main.ts', about: "the history page's script (`agent-evals report --history`, history.html)" },
  {
    name: 'DRAFTS_SCRIPT',
    entry: 'drafts-main.ts',
    about: "the drafts review's script (`agent-evals review <file.eval.yaml>`: accepts, edits or rejects each draft case, posts each action to its own server)",
  },
  { name: 'VIEW_SCRIPT', entry: 'view-main.ts', about: "the run list's script (`agent-evals view`: every run folder, links to each report, comparison and the history)" },
];

/** One page script: the entry (a file in page/) and what it imports, as one IIFE for browsers. */
export async function pageScript(entry = 'main.ts') {
  const out = await build({
    input: join(root, 'page', entry),
    cwd: root,
    write: false,
    logLevel: 'warn',
    platform: 'browser',
    tsconfig: join(root, 'page', 'tsconfig.json'),
    transform: { target: 'es2019' },
    output: { format: 'iife', strict: true, minify: false, comments: false },
  });
  if (out.output.length !== 1) throw new Error(`page bundle: expected one chunk, got ${out.output.length}`);
  const code = out.output[0].code;
  // Inlined in <script>…</script>: a closing tag or comment opener in the code would end or bend it.
  if (/<\/script|<!--/i.test(code)) throw new Error('page bundle: the script holds "</script" or "<!--"');
  return code;
}

/** Every page script, by its constant's name. */
export async function pageScripts() {
  const scripts = {};
  for (const { name, entry } of PAGE_ENTRIES) scripts[name] = await pageScript(entry);
  return scripts;
}

/** The generated file's text for the given scripts (by name): one JSON object. */
export function generatedFile(scripts) {
  const named = {};
  for (const { name } of PAGE_ENTRIES) named[name] = scripts[name];
  return JSON.stringify(named) + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(dirname(GENERATED), { recursive: true });
  writeFileSync(GENERATED, generatedFile(await pageScripts()));
}
