/**
 * linesOfPaths finds the line `yaml`'s document model gives (the line load errors always named),
 * for every node of files in each YAML style an eval file uses, and for a missing key under each.
 */
import { describe, expect, it } from 'vitest';
import { CORE_SCHEMA, load } from 'js-yaml';
import { LineCounter, isNode, parseDocument } from 'yaml';
import { linesOfPaths } from '../../src/suite/yaml-path-lines.js';
import { bigEvalText } from '../../bench/big-eval-file.mjs';

/** The old way: the deepest node along each path in `yaml`'s document model, and its line. */
function yamlLines(text: string, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>): Array<number | undefined> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return paths.map((path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node: unknown = doc.getIn(path.slice(0, depth) as Array<string | number>, true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  });
}

/** Every node's path, each with a missing key and a missing index below it. */
function allPaths(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  const out = [path, [...path, 'missing'], [...path, 7]];
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...allPaths(v, [...path, Array.isArray(value) ? Number(k) : k]));
  }
  return out;
}

const FILES: Record<string, string> = {
  generated: bigEvalText(5, true),
  'block, flow, empty values, comments, block scalars': [
    'suite: s',
    'target: t',
    'cases:',
    '  - id: a',
    '    metadata:',
    '    input: x',
    '    assert:',
    '      - type: contains',
    '        value:',
    '      -',
    '        type: x',
    '  - id: b  # a comment',
    '    # a comment line',
    '    input: |',
    '      two',
    '      lines',
    '    tags:',
    '    - a',
    '    - b',
    '    assert: [ {type: a}, [1, 2], "q" ]',
    '    reference: >-',
    '      folded',
    '    x: { a, b: 1 }',
    '',
  ].join('\n'),
  'anchors, aliases, tags, quoted keys': [
    '---',
    'suite: s',
    'base: &b',
    '  k: 1',
    '  l: [1, 2]',
    'cases:',
    '  - id: a',
    '    m: *b',
    '    "q k": 1',
    "    'r': !!str 5",
    '    s: [ {a: 1}, {b: 2} ]',
    '    t: &x [3]',
    '    u:',
  ].join('\n'),
  'CRLF line ends': 'suite: s\r\ncases:\r\n  - id: a\r\n    v:\r\n      w: 1\r\n',
};

describe('linesOfPaths', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`gives yaml's line for every path: ${name}`, () => {
      const paths = allPaths(load(text, { schema: CORE_SCHEMA }));
      expect(linesOfPaths(text, paths)).toEqual(yamlLines(text, paths));
    });
  }

  it('a path into a missing key takes its mapping line; an empty value its own line', () => {
    const text = 'suite: s\ncases:\n  - id: a\n    assert:\n      - { type: contains, valeu: x }\n    metadata:\n    input: y\n';
    expect(linesOfPaths(text, [['cases', 0, 'assert', 0, 'value'], ['cases', 0, 'metadata'], ['cases', 0, 'input'], ['nothing']])).toEqual([5, 6, 7, 1]);
  });

  it('a path asked at its key (an unknown field) takes the key line, not the line its block value starts on', () => {
    const text = 'suite: s\ncases:\n  - id: a\n    asert:\n      - type: contains\n        value: x\n    tags: [a]\n    extra:\n      # a note\n      k: v\n';
    const paths = [
      ['cases', 0, 'asert'],
      ['cases', 0, 'tags'],
      ['cases', 0, 'extra'],
      ['cases', 0, 'asert'],
    ];
    expect(linesOfPaths(text, paths, [true, true, true, false])).toEqual([4, 7, 8, 5]);
  });
});
