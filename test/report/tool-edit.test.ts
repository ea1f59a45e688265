/**
 * The tool-sequence edit of the report's Before and after section (page/tool-edit.ts): the
 * page's pure function, imported directly. Calls kept, inserted, dropped and reordered, in merged order.
 */
import { describe, expect, it } from 'vitest';
import { toolEdit, type ToolOp } from '../../page/tool-edit.js';

const ops = (list: [ToolOp['op'], string][]): ToolOp[] => list.map(([op, name]) => ({ op, name }));

describe('toolEdit', () => {
  it('keeps the same calls in the same order: nothing inserted, dropped or moved', () => {
    expect(toolEdit(['search', 'fetch'], ['search', 'fetch'])).toEqual({
      ops: ops([
        ['kept', 'search'],
        ['kept', 'fetch'],
      ]),
      inserted: 0,
      dropped: 0,
      moved: 0,
    });
  });

  it('marks a call only the later run made as inserted, in its place', () => {
    expect(toolEdit(['search', 'answer'], ['search', 'verify', 'answer'])).toEqual({
      ops: ops([
        ['kept', 'search'],
        ['inserted', 'verify'],
        ['kept', 'answer'],
      ]),
      inserted: 1,
      dropped: 0,
      moved: 0,
    });
  });

  it('marks a call the later run left out as dropped, one of two same-named calls included', () => {
    expect(toolEdit(['search', 'search', 'fetch', 'answer'], ['search', 'answer'])).toEqual({
      ops: ops([
        ['kept', 'search'],
        ['dropped', 'search'],
        ['dropped', 'fetch'],
        ['kept', 'answer'],
      ]),
      inserted: 0,
      dropped: 2,
      moved: 0,
    });
  });

  it('tells a reordered call from a dropped and an inserted one: one call moved, both its places shown', () => {
    expect(toolEdit(['search', 'fetch', 'answer'], ['fetch', 'search', 'answer'])).toEqual({
      ops: ops([
        ['moved-from', 'search'],
        ['kept', 'fetch'],
        ['moved-to', 'search'],
        ['kept', 'answer'],
      ]),
      inserted: 0,
      dropped: 0,
      moved: 1,
    });
  });

  it('counts a move, an insert and a drop in one edit', () => {
    const edit = toolEdit(['a', 'b', 'c', 'd'], ['b', 'a', 'c', 'e']);
    expect({ inserted: edit.inserted, dropped: edit.dropped, moved: edit.moved }).toEqual({ inserted: 1, dropped: 1, moved: 1 });
    expect(edit.ops.filter((o) => o.op === 'kept').map((o) => o.name)).toEqual(['b', 'c']);
    expect(edit.ops.find((o) => o.op === 'dropped')?.name).toBe('d');
    expect(edit.ops.find((o) => o.op === 'inserted')?.name).toBe('e');
  });

  it('handles a side with no calls', () => {
    expect(toolEdit([], ['search'])).toEqual({ ops: ops([['inserted', 'search']]), inserted: 1, dropped: 0, moved: 0 });
    expect(toolEdit(['search'], [])).toEqual({ ops: ops([['dropped', 'search']]), inserted: 0, dropped: 1, moved: 0 });
    expect(toolEdit([], [])).toEqual({ ops: [], inserted: 0, dropped: 0, moved: 0 });
  });
});
