import type { Document } from 'yaml';

/** What a command that writes an eval file (import, generate, score --save-failures) puts in it. */
export interface WrittenEvalFile {
  suite: string;
  target: string;
  cases: readonly { assert?: readonly unknown[] }[];
  /** The comment lines above the suite: where the cases came from and what to do with them. */
  header: readonly string[];
  /** A comment beside `target`, when it says which flag sets it. */
  targetComment?: string;
  /** Anything else a case's nodes need (a comment, a flow style), given the document and the case's index. */
  eachCase?: (doc: Document, index: number) => void;
}

/**
 * An eval file's YAML text, written through the `yaml` document model (which keeps comments): the
 * header above the suite, each assertion on one line, no folding. Text from outside (a recorded
 * input, a generator's answer) is only ever a value here, never a comment or a key; a line break in
 * a header line (a file name) would end its comment early, so it becomes a space.
 */
export async function writtenEvalText(file: WrittenEvalFile): Promise<string> {
  const { Document } = await import('yaml');
  const doc = new Document({ suite: file.suite, target: file.target, cases: file.cases });
  doc.commentBefore = file.header.map((l) => ` ${l.replace(/[\r\n\u2028\u2029]+/g, ' ')}`).join('\n');
  const target = doc.get('target', true) as { comment?: string | null } | undefined;
  if (target && file.targetComment !== undefined) target.comment = ` ${file.targetComment}`;
  file.cases.forEach((_c, i) => {
    const assert = doc.getIn(['cases', i, 'assert'], true) as { items?: Array<{ flow?: boolean }> } | undefined;
    for (const item of assert?.items ?? []) item.flow = true;
    file.eachCase?.(doc, i);
  });
  return doc.toString({ lineWidth: 0 });
}
