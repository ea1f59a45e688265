import { readdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/**
 * In a TypeScript module, an import of `./agent.js` names `agent.ts`. jiti finds it only after ~150 other
 * candidates (`agent.js`, `agent.js.ts`, `agent.js/index.ts`, ... under two condition sets, each a
 * failed stat and a thrown error): about 10 ms a specifier, most of jiti's time in a warm `list`.
 * Where the folder holds a file `agent.ts` and nothing whose name starts with `agent.js` (no file or
 * folder jiti would pick first), the compiled code jiti runs names `./agent.ts` itself: the same file,
 * found at once. Anything else is left as written, to jiti's own resolution. Applied to the compiled
 * text on every load and never stored (ts-cache.ts), so it always reflects the folder as it is now.
 */
const RELATIVE_JS = /jitiImport\("(\.{1,2}\/[^"\\]*?)\.(c|m)?js"\)/g;

/** File and folder names of a directory (undefined when it cannot be read). */
export type ListDir = (dir: string) => ReadonlyArray<{ name: string; isFile(): boolean }> | undefined;

const listDir: ListDir = (dir) => {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
};

/** `code` (jiti's compiled output for `file`) with each relative `.js`/`.mjs`/`.cjs` import that means a `.ts`/`.mts`/`.cts` file named directly. */
export function directTsSpecifiers(code: string, file: string, list: ListDir = listDir): string {
  if (!code.includes('jitiImport(".')) return code;
  const listed = new Map<string, ReturnType<ListDir>>();
  return code.replace(RELATIVE_JS, (whole, stem: string, kind: string | undefined) => {
    const target = resolve(dirname(file), stem);
    const dir = dirname(target);
    if (!listed.has(dir)) listed.set(dir, list(dir));
    const entries = listed.get(dir);
    const name = basename(target);
    const js = `${name}.${kind ?? ''}js`;
    const ts = `${name}.${kind ?? ''}ts`;
    if (!entries || entries.some((e) => e.name.startsWith(js)) || !entries.some((e) => e.name === ts && e.isFile())) return whole;
    return `jitiImport(${JSON.stringify(`${stem}.${kind ?? ''}ts`)})`;
  });
}
