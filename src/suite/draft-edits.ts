import { Document, isMap, isSeq, LineCounter, parseDocument, stringify, type YAMLMap, type YAMLSeq } from 'yaml';
import type { DraftAction, DraftItem } from '../core/draft-review.js';

/**
 * The drafts review's edits of a YAML eval file, through `yaml`'s Document API: the one case an
 * action names is changed and the document written back whole, so comments, key order and the
 * other cases stay as written (YAML's own spacing may be normalised where the file was irregular).
 * Never run on a file that did not parse: the caller validates what an edit produces before writing it.
 */

/** How a document is written back: no folding of long lines (a reply-length input stays on its line). */
const TO_STRING = { lineWidth: 0, minContentWidth: 0 } as const;

/** The draft cases of an eval file's text (`draft: true`), in file order; none when it holds none. */
export function draftItems(text: string): DraftItem[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const cases = doc.get('cases');
  if (!isSeq(cases)) return [];
  const out: DraftItem[] = [];
  for (const node of cases.items) {
    if (!isMap(node) || node.get('draft') !== true) continue;
    const c = node.toJS(doc) as Record<string, unknown>;
    if (typeof c.id !== 'string') continue;
    const meta = (typeof c.metadata === 'object' && c.metadata !== null ? c.metadata : {}) as Record<string, unknown>;
    const text = (k: string): Record<string, string> => (typeof meta[k] === 'string' ? { [k]: meta[k] } : {});
    const asked = Object.fromEntries(['input', 'messages', 'turns', 'simulatedUser'].filter((k) => c[k] !== undefined).map((k) => [k, c[k]]));
    out.push({
      id: c.id,
      line: node.range ? lines.linePos(node.range[0]).line : 1,
      ...(typeof c.input === 'string' ? { input: c.input } : { asked: yamlText(asked) }),
      ...(typeof c.reference === 'string' ? { reference: c.reference } : {}),
      ...text('intent'),
      ...text('kind'),
      ...text('generatedBy'),
      assert: Array.isArray(c.assert) && c.assert.length ? assertText(node.get('assert', true), c.assert) : '',
    });
  }
  return out;
}

/** An edit's result: the file's new text, or why there is none (`gone`: the draft is not in the file; `invalid`: refused). */
export type DraftEdit = { ok: true; text: string; done: string } | { ok: false; why: 'gone' | 'invalid'; message: string };

/**
 * The file's text after one action on one draft: accept removes its `draft: true`, reject removes
 * the case, edit sets its input, reference or assertions (it stays a draft). A draft that is no
 * longer in the text (rejected, accepted or renamed by another editor) is reported, never recreated.
 */
export function applyDraftAction(text: string, action: DraftAction): DraftEdit {
  const doc = parseDocument(text);
  if (doc.errors.length) return { ok: false, why: 'invalid', message: `the file no longer parses as YAML: ${doc.errors[0]!.message}` };
  const cases = doc.get('cases');
  const at = isSeq(cases) ? cases.items.findIndex((n) => isMap(n) && n.get('id') === action.id) : -1;
  const node = at >= 0 && isSeq(cases) ? (cases.items[at] as YAMLMap) : undefined;
  if (!isSeq(cases) || !node) return { ok: false, why: 'gone', message: `the draft "${action.id}" is no longer in the file (removed or renamed since the page was loaded)` };
  if (node.get('draft') !== true) return { ok: false, why: 'gone', message: `"${action.id}" is no longer a draft (accepted since the page was loaded)` };
  const out = (done: string): DraftEdit => ({ ok: true, text: written(doc, text), done });
  if (action.action === 'accept') {
    node.delete('draft');
    return out(`accepted ${action.id}`);
  }
  if (action.action === 'reject') {
    cases.delete(at);
    return out(`rejected ${action.id}`);
  }
  if (action.input !== undefined) {
    if (typeof node.get('input') !== 'string') return { ok: false, why: 'invalid', message: "input: this case's input is not one text (parts, messages or turns): edit it in the file" };
    if (action.input.trim() === '') return { ok: false, why: 'invalid', message: 'input: give the text the agent is asked' };
    node.set('input', action.input);
  }
  if (action.reference !== undefined) {
    if (action.reference === '') node.delete('reference');
    else node.set('reference', action.reference);
  }
  if (action.assert !== undefined) {
    const given = parseDocument(action.assert);
    if (given.errors.length) return { ok: false, why: 'invalid', message: `assert: not YAML: ${given.errors[0]!.message}` };
    if (!isSeq(given.contents)) return { ok: false, why: 'invalid', message: 'assert: expected a YAML list of assertions (`- type: contains` …)' };
    node.set('assert', given.contents);
  }
  return out(`edited ${action.id}`);
}

/**
 * The document as text, its sequences indented as the file indents them (`cases:\n- id` or `cases:\n  - id`),
 * and its line breaks as the file's: `yaml` writes LF, so a file whose first line ends in CRLF gets CRLF
 * throughout (its scalars' line breaks were read as LF, so none is doubled).
 */
function written(doc: Document, original: string): string {
  const indentSeq = !/^[A-Za-z_][\w-]*:[ \t]*(#.*)?\r?\n-[ \t]/m.test(original);
  const text = doc.toString({ ...TO_STRING, indentSeq });
  return /^[^\n]*\r\n/.test(original) ? text.replace(/\r?\n/g, '\r\n') : text;
}

/**
 * The case's `assert` list as the file writes it (its comments and flow mappings), for the edit box: a
 * Save sends the box back whole, and the list printed anew from data lost the generator's comment
 * and rewrote every mapping as a block, though only the input or reference was edited.
 */
function assertText(node: unknown, value: unknown): string {
  if (!isSeq(node)) return yamlText(value);
  const list = new Document();
  list.contents = node.clone() as YAMLSeq;
  try {
    return list.toString(TO_STRING);
  } catch {
    return yamlText(value); // an alias to an anchor elsewhere in the file: the values
  }
}

/** A value as block YAML, for the page's boxes. */
function yamlText(value: unknown): string {
  return stringify(value, TO_STRING);
}
