import { CORE_SCHEMA, load, type State } from 'js-yaml';

/**
 * The line of each path's deepest node that exists in the YAML text, from one js-yaml pass.
 *
 * js-yaml reports each node's start ('open') and end ('close'); a stack of the open nodes follows
 * only the few that lie along a wanted path, so the pass keeps no document model: a 50 MB file is
 * located for about the cost of reading it once (`yaml`'s document model of it took 15× that and
 * 2 GB). A child of a mapping is a key when a ':' follows it; the child opened after a key is its
 * value. A path that ends in a mapping's missing key gets the mapping's line; one asked `atKey`
 * (an unknown field) gets its key's line.
 */
export function linesOfPaths(text: string, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>, atKey: ReadonlyArray<boolean> = []): Array<number | undefined> {
  const found: Array<{ depth: number; line: number } | undefined> = paths.map(() => undefined);
  const stack: Array<Frame | undefined> = [];
  const root: Frame = { on: paths.map((_, i) => i), depth: -1, line: 0, start: 0, openLine: 0, items: 0, key: undefined };
  load(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === 'open') {
        const parent = stack.length === 0 ? root : stack.at(-1);
        stack.push(parent ? childFrame(parent, state) : undefined);
        return;
      }
      const frame = stack.pop();
      const parent = stack.length === 0 ? root : stack.at(-1);
      if (!frame || !parent) return;
      if (parent !== root && followedByColon(state)) {
        // A key: the next child of the parent is its value.
        parent.key = String(state.result as unknown);
        // A path asked at its last key's own line stops there: its value (a block under it) starts lower.
        for (const i of parent.on) {
          if (atKey[i] && paths[i]!.length === parent.depth + 1 && String(paths[i]![parent.depth]) === parent.key) found[i] = { depth: parent.depth + 1, line: frame.line };
        }
        return;
      }
      parent.key = undefined;
      parent.items += 1;
      // An empty node ends where its content would start: it stands on the line it opened on.
      const line = state.position <= frame.start ? frame.openLine : frame.line;
      for (const i of frame.on) {
        const best = found[i];
        if (!best || frame.depth > best.depth) found[i] = { depth: frame.depth, line };
      }
    },
  });
  return found.map((f) => f?.line);

  /** The frame of a node opening under `parent`, on the paths whose next step it is (undefined when none). */
  function childFrame(parent: Frame, state: State): Frame | undefined {
    if (parent.on.length === 0) return undefined;
    const depth = parent.depth + 1;
    const on =
      parent === root
        ? parent.on
        : parent.on.filter((i) => {
            const step = paths[i]![depth - 1];
            return typeof step === 'number' ? parent.key === undefined && parent.items === step : parent.key !== undefined && parent.key === String(step);
          });
    // Children of a frame on a path are tracked (to tell keys from values) even when off it.
    const { start, line } = contentStart(text, state.position, state.line);
    return { on: on.filter((i) => paths[i]!.length >= depth), depth, line, start, openLine: state.line + 1, items: 0, key: undefined };
  }
}

interface Frame {
  /** Indexes of the paths this node lies on. */
  on: number[];
  /** How many path steps lead to it (the document itself is 0). */
  depth: number;
  /** 1-based line of its content, and where that starts. */
  line: number;
  start: number;
  /** 1-based line where js-yaml began reading it. */
  openLine: number;
  /** Values closed so far (a sequence's index). */
  items: number;
  /** The key just closed, whose value opens next. */
  key: string | undefined;
}

/** Past blanks, line breaks, comments and anchor or tag properties: where a node's content starts, and its 1-based line. */
function contentStart(text: string, from: number, line0: number): { start: number; line: number } {
  let i = from;
  let line = line0 + 1;
  for (;;) {
    const ch = text.charCodeAt(i);
    if (ch === 0x20 || ch === 0x09 || ch === 0x0d) i += 1;
    else if (ch === 0x0a) {
      i += 1;
      line += 1;
    } else if (ch === 0x23) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a) i += 1;
    } else if (ch === 0x26 || ch === 0x21) {
      // An anchor or a tag: the content follows it.
      while (i < text.length && !/\s/.test(text[i]!)) i += 1;
    } else return { start: i, line };
  }
}

/** Whether a ':' follows the node js-yaml just closed on its line: then it was a mapping key. */
function followedByColon(state: State): boolean {
  const input = state.input;
  let i = state.position;
  while (input.charCodeAt(i) === 0x20 || input.charCodeAt(i) === 0x09) i += 1;
  return input.charCodeAt(i) === 0x3a;
}
