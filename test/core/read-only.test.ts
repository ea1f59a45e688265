/** Read-only views: deep, in place or as a copy, over any depth, leaving binary data and the original alone. */
import { describe, expect, it } from 'vitest';
import { deepFreeze, frozenCopy } from '../../src/core/read-only.js';

/** `{ next: { next: … } }`, `depth` levels: deeper than the call stack allows a recursive walk. */
function chain(depth: number): { next?: unknown; leaf?: number[] } {
  const root: { next?: unknown; leaf?: number[] } = {};
  let at = root;
  for (let i = 0; i < depth; i++) {
    const next = {};
    at.next = next;
    at = next;
  }
  at.leaf = [1];
  return root;
}

function bottom(o: { next?: unknown; leaf?: number[] }): { leaf?: number[] } {
  let at = o;
  while (at.next) at = at.next;
  return at;
}

describe('deepFreeze', () => {
  it('freezes everything reachable, at any depth, so a write throws', () => {
    const v = deepFreeze(chain(100_000));
    expect(() => bottom(v).leaf!.push(2)).toThrow(TypeError);
    expect(() => {
      (v as Record<string, unknown>).extra = 1;
    }).toThrow(TypeError);
  });

  it('walks below a root someone froze only at the top, and leaves binary data as it is', () => {
    const inner = { n: 1 };
    const bytes = new Uint8Array([1, 2]);
    const v = deepFreeze(Object.freeze({ inner, bytes }));
    expect(Object.isFrozen(inner)).toBe(true);
    expect(v.bytes).toBe(bytes);
  });
});

describe('frozenCopy', () => {
  it('gives a frozen deep copy and leaves the original writable', () => {
    const original = { reply: 'pass', run: { steps: [{ toolCalls: [{ args: { a: 1 } }] }] } };
    const copy = frozenCopy(original);
    expect(copy).toEqual(original);
    expect(() => {
      copy.run.steps[0]!.toolCalls[0]!.args.a = 2;
    }).toThrow(TypeError);
    original.run.steps[0]!.toolCalls[0]!.args.a = 3;
    expect(copy.run.steps[0]!.toolCalls[0]!.args.a).toBe(1);
  });

  it('copies any depth, keeps shared parts shared, and shares what is not plain data', () => {
    const deep = frozenCopy(chain(100_000));
    expect(bottom(deep).leaf).toEqual([1]);
    const part = { x: 1 };
    const fn = () => 1;
    const copy = frozenCopy({ a: part, b: part, fn });
    expect(copy.a).toBe(copy.b);
    expect(copy.fn).toBe(fn);
  });
});
