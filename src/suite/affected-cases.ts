import type { PlannedCase } from './plan.js';

/** What a watch re-run needs to know about the project, all paths relative to the same directory as the changed ones. */
export interface ChangeContext {
  /** The config file, or null when the run has none. */
  configFile: string | null;
  /** Command targets: name -> the words of its command (a target whose command names a changed file re-runs). */
  commands: Readonly<Record<string, readonly string[]>>;
}

/** Files whose change can alter what a target does or what a case holds; others (docs, images) are ignored. */
const SOURCE = /\.(c|m)?(ts|js)x?$|\.(json|jsonl|csv|ya?ml|py|sh)$/;

/** Whether a saved file can matter to a run at all: the watcher ignores every other file. */
export const isSourceFile = (path: string): boolean => SOURCE.test(path);

const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '');

/**
 * The cases of `cases` (the new plan) that a set of changed files affects:
 * - the config file: every case (it defines every target);
 * - an eval file: its own cases;
 * - a file a command target's command names (by path or file name): that target's cases;
 * - any other source file (.ts/.js/.json/.yaml/.csv/...): every case, since the config, a function
 *   target or a TypeScript eval may import it and we do not trace imports.
 * Files of other kinds (README.md, editor swap files) affect nothing.
 */
export function affectedCases(cases: readonly PlannedCase[], changed: readonly string[], ctx: ChangeContext): PlannedCase[] {
  const evalFiles = new Set(cases.map((c) => norm(c.file)));
  const files = new Set<string>();
  const targets = new Set<string>();
  for (const raw of changed) {
    const path = norm(raw);
    if (ctx.configFile !== null && path === norm(ctx.configFile)) return [...cases];
    if (evalFiles.has(path)) {
      files.add(path);
      continue;
    }
    const named = Object.entries(ctx.commands).filter(([, words]) => words.some((w) => namesFile(w, path)));
    if (named.length > 0) for (const [name] of named) targets.add(name);
    else if (isSourceFile(path)) return [...cases];
  }
  return cases.filter((c) => files.has(norm(c.file)) || targets.has(c.targetName));
}

/** A command word names a file when it is the file's path, ends with it, or is its file name. */
function namesFile(word: string, path: string): boolean {
  const w = norm(word);
  const base = path.slice(path.lastIndexOf('/') + 1);
  return w === path || w.endsWith(`/${path}`) || w === base || w.endsWith(`/${base}`);
}
