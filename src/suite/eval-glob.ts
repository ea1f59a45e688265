import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The common shape of an eval-file glob, `dir/sub/**\/*.eval.{yaml,ts}` (literal folders, at most one
 * `**`, then `*` and a literal end with at most one `{a,b}` group), matched by walking the folders
 * with readdir: what tinyglobby (and picomatch, which it loads and compiles each pattern with) cost
 * `list` ~20 ms for. It matches as tinyglobby does with discover.ts's options: `*` and `**` skip
 * names starting with a dot, files only, `node_modules` folders ignored. Undefined for anything
 * else (another pattern, a symbolic link met, a folder the pattern matches, a folder that cannot be
 * read, Windows paths), and
 * the caller asks tinyglobby: what matches never depends on which of the two answered.
 */
export function simpleGlob(root: string, pattern: string): string[] | undefined {
  if (process.platform === 'win32') return undefined;
  const shape = simpleShape(pattern);
  if (shape === undefined) return undefined;
  const found: string[] = [];
  const walk = (dir: string, deep: boolean): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      if (e.isSymbolicLink()) return false;
      if (e.name.startsWith('.')) continue;
      const matches = shape.ends.some((end) => e.name.endsWith(end));
      if (e.isDirectory()) {
        // tinyglobby takes a folder the pattern matches to mean every file under it: left to it.
        if (matches) return false;
        if (deep && e.name !== 'node_modules' && !walk(join(dir, e.name), true)) return false;
      } else if (e.isFile() && matches) {
        found.push(join(dir, e.name));
      }
    }
    return true;
  };
  return walk(join(root, ...shape.folders), shape.deep) ? found : undefined;
}

/** A literal part: letters, digits, `_`, `.` and `-` only, so no character is special to any matcher. */
const LITERAL = /^[\w.-]*$/;

/** `folders/**\/*end` taken apart (`ends`: the end's alternatives), or undefined when the pattern is not of that shape. */
function simpleShape(pattern: string): { folders: string[]; deep: boolean; ends: string[] } | undefined {
  const parts = pattern.split('/');
  const last = parts.pop()!;
  const deep = parts.at(-1) === '**';
  if (deep) parts.pop();
  // Literal folders only: no `.`/`..`, no empty part (a leading or doubled `/`), none tinyglobby's ignore would drop.
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p === 'node_modules' || !LITERAL.test(p))) return undefined;
  const m = /^\*([\w.-]*)(?:\{([\w.,-]*)\}([\w.-]*))?$/.exec(last);
  if (!m) return undefined;
  const [, head = '', group, tail = ''] = m;
  if (group === undefined) return { folders: parts, deep, ends: [head] };
  const alternatives = group.split(',');
  // `{a}` and `{a,}` are not plain alternatives for every matcher: left to tinyglobby.
  if (alternatives.length < 2 || alternatives.some((a) => a === '')) return undefined;
  return { folders: parts, deep, ends: alternatives.map((a) => `${head}${a}${tail}`) };
}
