/**
 * The drafts review's edits of a YAML eval file (suite/draft-edits.ts): each action changes the one
 * case it names through the YAML document, so comments, quoting and the other cases stay as written;
 * a draft no longer in the text is reported, never recreated.
 */
import { describe, expect, it } from 'vitest';
import { applyDraftAction, draftItems } from '../../src/suite/draft-edits.js';
import { generatedEvalFile } from '../support/draft-project.js';

const FILE = generatedEvalFile();

function applied(text: string, action: Parameters<typeof applyDraftAction>[1]): string {
  const r = applyDraftAction(text, action);
  if (!r.ok) throw new Error(r.message);
  return r.text;
}

describe('draft edits through the YAML document', () => {
  it('reads each draft: id, line, input, reference, metadata and its assertions as YAML', () => {
    const items = draftItems(FILE);
    expect(items.map((d) => d.id)).toEqual(['order-status-1', 'order-status-2', 'returns-1', 'returns-2', 'shipping-1', 'shipping-2']);
    expect(items[0]).toEqual({
      id: 'order-status-1',
      line: 6,
      input: 'Where is my order A1?',
      reference: 'It ships tomorrow.',
      intent: 'order status',
      kind: 'typical',
      generatedBy: 'fake:generator',
      // As the file writes it: flow mappings stay flow.
      assert: '- { type: calledTool, tool: lookup_order }\n- { type: notCalledTool, tool: search_faq }\n',
    });
    expect(draftItems(applied(FILE, { action: 'accept', id: 'returns-1' })).map((d) => d.id)).not.toContain('returns-1');
  });

  it('accept removes only the draft line: comments, flow mappings and quoting stay as written', () => {
    const out = applied(FILE, { action: 'accept', id: 'returns-1' });
    const lines = FILE.split('\n');
    const at = lines.findIndex((l) => l === '  - id: returns-1') + 1;
    expect(lines[at]).toBe('    draft: true');
    expect(out).toBe([...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'));
    expect(out).toContain('# Drafted by agent-evals generate: review before these count.');
    expect(out).toContain('  # returns (typical)\n');
  });

  it('reject removes the case; edit sets input, reference and assertions (comments in the edit kept), the draft mark stays', () => {
    const rejected = applied(FILE, { action: 'reject', id: 'returns-2' });
    expect(rejected).not.toContain('returns-2');
    expect(draftItems(rejected)).toHaveLength(5);
    const edited = applied(FILE, { action: 'edit', id: 'shipping-1', input: 'Do you ship to Norway and Iceland?', reference: '', assert: '# by hand\n- { type: contains, value: Norway }\n' });
    const item = draftItems(edited).find((d) => d.id === 'shipping-1')!;
    expect(item.input).toBe('Do you ship to Norway and Iceland?');
    expect(item.assert).toBe('# by hand\n- { type: contains, value: Norway }\n');
    // The input keeps its quoting (the scalar is set, not replaced).
    expect(edited).toContain('    input: "Do you ship to Norway and Iceland?"\n    assert:\n      # by hand\n      - { type: contains, value: Norway }\n');
    const noRef = applied(FILE, { action: 'edit', id: 'order-status-1', reference: '' });
    expect(draftItems(noRef)[0]!.reference).toBeUndefined();
  });

  it("a Save that changes only the reference sends the assertions box back as shown: the file's list, its comment and flow mappings, is unchanged", () => {
    const file = FILE.replace(
      '      - { type: calledTool, tool: lookup_order }\n      - { type: notCalledTool, tool: search_faq }\n',
      '      # no tool of the target to check: replace with what the reply must do\n      - { type: lengthBetween, min: 1 }\n',
    );
    expect(file).not.toBe(FILE);
    const shown = draftItems(file)[0]!;
    expect(shown.assert).toBe('# no tool of the target to check: replace with what the reply must do\n- { type: lengthBetween, min: 1 }\n');
    // What the page's Save posts: every box, the assertions as shown.
    const saved = applied(file, { action: 'edit', id: shown.id, input: shown.input!, reference: 'It ships on Monday.', assert: shown.assert });
    expect(saved).toBe(file.replace('reference: "It ships tomorrow."', 'reference: "It ships on Monday."'));
  });

  it('a draft gone or already accepted is reported, not recreated; assertions that are not a YAML list are refused', () => {
    expect(applyDraftAction(FILE, { action: 'accept', id: 'nope' })).toEqual({ ok: false, why: 'gone', message: expect.stringContaining('"nope" is no longer in the file') as string });
    const accepted = applied(FILE, { action: 'accept', id: 'returns-1' });
    expect(applyDraftAction(accepted, { action: 'reject', id: 'returns-1' })).toMatchObject({ ok: false, why: 'gone', message: expect.stringContaining('no longer a draft') as string });
    expect(applyDraftAction(FILE, { action: 'edit', id: 'returns-1', assert: 'type: contains' })).toMatchObject({
      ok: false,
      why: 'invalid',
      message: expect.stringMatching(/^assert: expected a YAML list/) as string,
    });
    expect(applyDraftAction(FILE, { action: 'edit', id: 'returns-1', assert: '- [unclosed' })).toMatchObject({
      ok: false,
      why: 'invalid',
      message: expect.stringMatching(/^assert: not YAML/) as string,
    });
  });

  it('keeps a CRLF file CRLF after accept, edit and reject, comments and block scalars included', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    // A multi-line input as a block scalar: its line breaks are CRLF in the file too, never doubled.
    const file = crlf(FILE).replace('    input: "Do you ship to Norway?"', '    input: |\r\n      Do you ship to Norway?\r\n      And to Iceland?');
    const lf = file.replace(/\r\n/g, '\n');
    const actions: Array<Parameters<typeof applyDraftAction>[1]> = [
      { action: 'accept', id: 'returns-1' },
      { action: 'reject', id: 'returns-2' },
      { action: 'edit', id: 'shipping-1', input: 'Do you ship\nto Norway?', reference: 'Yes.', assert: '# by hand\n- { type: contains, value: Norway }\n' },
    ];
    for (const action of actions) {
      const out = applied(file, action);
      // Every line break is CRLF: none bare, none doubled.
      expect(
        out.split('\r\n').every((l) => !l.includes('\n') && !l.includes('\r')),
        JSON.stringify(out),
      ).toBe(true);
      // The same edit as on the LF file, line for line: comments and the block scalar kept.
      expect(out).toBe(crlf(applied(lf, action)));
      expect(out).toContain('# Drafted by agent-evals generate: review before these count.\r\n');
      expect(draftItems(out).find((d) => d.id === 'shipping-1')!.input).toBe(action.action === 'edit' ? 'Do you ship\nto Norway?' : 'Do you ship to Norway?\nAnd to Iceland?\n');
    }
    // An LF file stays LF.
    expect(applied(lf, { action: 'accept', id: 'returns-1' })).not.toContain('\r');
  });

  it('keeps a file whose lists are not indented under their key that way', () => {
    const flat = 'suite: s\ntarget: agent\ncases:\n- id: a\n  draft: true\n  input: q\n  assert:\n  - { type: contains, value: q }\n';
    expect(applied(flat, { action: 'accept', id: 'a' })).toBe('suite: s\ntarget: agent\ncases:\n- id: a\n  input: q\n  assert:\n  - { type: contains, value: q }\n');
  });
});
