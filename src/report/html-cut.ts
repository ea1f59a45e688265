import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * A text field of a case longer than this many characters (UTF-16 code units, as JavaScript counts)
 * is cut on the HTML page: the page keeps its first FIELD_PREVIEW characters and its size, and the
 * whole text goes to a plain-text file beside the page. 16,384 keeps a page of 300 trials with
 * 1 MB replies near 1 MB, while every ordinary reply, tool result or judge reason stays whole.
 */
export const FIELD_LIMIT = 16_384;
/** How much of a cut field the page keeps. */
export const FIELD_PREVIEW = 1_000;

/** Cut files are named `<n>.txt`; only such files are removed from the folder before a new page is written. */
const CUT_FILE = /^\d+\.txt$/;

/** The folder beside the page that holds its cut fields: `report.html` → `report-files`. */
export function filesDirName(pagePath: string): string {
  return `${basename(pagePath).replace(/\.html?$/i, '')}-files`;
}

/**
 * Cuts a page's long text fields into numbered files of one folder beside it. A cut field becomes
 * `{ <key>: n, chars, preview }` in the page's data, where the key holds a random nonce drawn per
 * page, so no text from the run can pose as a cut field; the page builds the link from n alone
 * (`<folder>/<n>.txt`), so a link target is always one of our own file names.
 */
export class FieldCutter {
  readonly key = `agent-evals-cut-${randomBytes(12).toString('hex')}`;
  readonly dir: string;
  readonly dirName: string;
  private count = 0;
  private cleared = false;

  constructor(
    pagePath: string,
    readonly limit = FIELD_LIMIT,
  ) {
    this.dirName = filesDirName(pagePath);
    this.dir = join(dirname(pagePath), this.dirName);
  }

  /** How many fields were cut so far (files written). */
  get files(): number {
    return this.count;
  }

  /** Removes the files an earlier page left in the folder (only our numbered ones), once. */
  async clear(): Promise<void> {
    if (this.cleared) return;
    this.cleared = true;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return; // No folder yet.
    }
    await Promise.all(names.filter((n) => CUT_FILE.test(n)).map((n) => rm(join(this.dir, n), { force: true })));
  }

  /** One case's JSON with every string over the limit replaced by its cut marker; the full texts are written to files. */
  async cut(json: string): Promise<string> {
    // A case shorter than the limit holds no string over it.
    if (json.length <= this.limit) return json;
    const long: { n: number; text: string }[] = [];
    const value: unknown = JSON.parse(json, (_key, v: unknown) => {
      if (typeof v !== 'string' || v.length <= this.limit) return v;
      const n = this.count++;
      long.push({ n, text: v });
      return { [this.key]: n, chars: v.length, preview: preview(v) };
    });
    if (!long.length) return json;
    await mkdir(this.dir, { recursive: true });
    for (const { n, text } of long) await writeFile(join(this.dir, `${n}.txt`), text, 'utf8');
    return JSON.stringify(value);
  }
}

/** The first FIELD_PREVIEW characters, not splitting a surrogate pair. */
function preview(text: string): string {
  let end = FIELD_PREVIEW;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}
