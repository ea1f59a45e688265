/**
 * Matrix expansion in planning: one case per matrix value with the value in its key, a case's own
 * `target`, the command line's --target / --matrix, and the errors that name file, line and field.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases, type PlanDefaults } from '../../src/suite/plan.js';
import { selectCases } from '../../src/suite/select.js';
import { targetOverride } from '../../src/cli/target-flags.js';
import { UserError } from '../../src/core/errors.js';

const defaults: PlanDefaults = { repeat: 1, passRate: 1, timeoutMs: 1000, targets: ['a', 'b', 'c'], judgeDefaults: { severity: 'gate', threshold: 0.5 } };

function project(files: Record<string, string>): { dir: string; paths: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-evals-matrix-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, paths: Object.keys(files).map((n) => join(dir, n)) };
}

const yaml = (...lines: string[]) => lines.join('\n') + '\n';
const ASSERT = '    assert: [{ type: contains, value: x }]';

/** The error `loadCases` throws, with every message it holds. */
async function loadError(files: Record<string, string>, d: PlanDefaults = defaults): Promise<string> {
  const { dir, paths } = project(files);
  const err = await loadCases(paths, dir, d).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return (err as UserError).message;
}

describe('matrix planning', () => {
  it('a suite matrix runs each case once per value, the value in its key; a case naming its own target runs once', async () => {
    const { dir, paths } = project({
      's.eval.yaml': yaml('suite: support', 'matrix: { target: [a, b] }', 'cases:', '  - id: refunds/verify', '    input: hi', ASSERT, '  - id: pinned', '    target: c', '    input: hi', ASSERT),
    });
    const cases = await loadCases(paths, dir, defaults);
    expect(cases.map((c) => [c.key, c.targetName, c.matrix])).toEqual([
      ['support/refunds/verify [target=a]', 'a', { target: 'a' }],
      ['support/refunds/verify [target=b]', 'b', { target: 'b' }],
      ['support/pinned', 'c', undefined],
    ]);
    expect(cases.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('--matrix overrides every suite and case target; --target runs all on one target with keys unchanged', async () => {
    const files = { 's.eval.yaml': yaml('suite: s', 'target: a', 'cases:', '  - id: one', '    input: hi', ASSERT, '  - id: two', '    target: b', '    input: hi', ASSERT) };
    const { dir, paths } = project(files);
    const matrix = await loadCases(paths, dir, { ...defaults, targetOverride: targetOverride({ matrix: ['target=b,c'] }, defaults.targets) });
    expect(matrix.map((c) => c.key)).toEqual(['s/one [target=b]', 's/one [target=c]', 's/two [target=b]', 's/two [target=c]']);
    const single = await loadCases(paths, dir, { ...defaults, targetOverride: targetOverride({ target: 'c' }, defaults.targets) });
    expect(single.map((c) => [c.key, c.targetName])).toEqual([
      ['s/one', 'c'],
      ['s/two', 'c'],
    ]);
  });

  it('--filter with a case id selects each of its matrix cases; a glob may pick one value', async () => {
    const { dir, paths } = project({ 's.eval.yaml': yaml('suite: s', 'matrix: { target: [a, b] }', 'cases:', '  - id: one', '    input: hi', ASSERT, '  - id: other', '    input: hi', ASSERT) });
    const cases = await loadCases(paths, dir, defaults);
    const keys = (filters: string[]) => selectCases(cases, { filters, tags: [], excludeTags: [] }).map((c) => c.key);
    expect(keys(['s/one'])).toEqual(['s/one [target=a]', 's/one [target=b]']);
    expect(keys(['*target=b*'])).toEqual(['s/one [target=b]', 's/other [target=b]']);
  });

  it('an unknown matrix dimension is exit 2 naming file, line and field', async () => {
    const msg = await loadError({ 's.eval.yaml': yaml('suite: s', 'target: a', 'matrix:', '  target: [a]', '  temperature: [x]', 'cases:', '  - id: one', '    input: hi', ASSERT) });
    expect(msg).toMatch(/s\.eval\.yaml:5/);
    expect(msg).toContain('matrix.temperature');
    expect(msg).toContain('unknown matrix dimension "temperature" (the dimensions are target, model, effort, instructions)');
  });

  it('an unknown target in a matrix names the matrix line; on a case, the case line and field', async () => {
    const inMatrix = await loadError({ 's.eval.yaml': yaml('suite: s', 'matrix: { target: [a, nope] }', 'cases:', '  - id: one', '    input: hi', ASSERT) });
    expect(inMatrix).toMatch(/s\.eval\.yaml:2.*target.*unknown target "nope"/);
    const onCase = await loadError({ 's.eval.yaml': yaml('suite: s', 'target: a', 'cases:', '  - id: one', '    input: hi', ASSERT, '  - id: two', '    target: nope', '    input: hi', ASSERT) });
    expect(onCase).toMatch(/s\.eval\.yaml:7.*target.*unknown target "nope"/);
  });

  it("TypeScript: an unknown suite target names the line of the suite's `target:`, not a case's", async () => {
    const msg = await loadError({
      's.eval.ts': [
        'export default {',
        "  suite: 'ts',",
        "  // retarget: 'nope' is a comment, not the key",
        "  target: 'nope',",
        '  cases: [',
        "    { id: 'one', input: 'hi', assert: [{ type: 'contains', value: 'x' }] },",
        '  ],',
        '};',
      ].join('\n'),
    });
    expect(msg).toMatch(/^s\.eval\.ts:4: target: unknown target "nope"/);
  });

  it('a suite needs a target or a matrix', async () => {
    const msg = await loadError({ 's.eval.yaml': yaml('suite: s', 'cases:', '  - id: one', '    input: hi', ASSERT) });
    expect(msg).toContain('a suite needs "target"');
  });

  it('TypeScript: defineEval takes a matrix, and a case its own target', async () => {
    const { dir, paths } = project({
      's.eval.ts': [
        'export default {',
        "  suite: 'ts',",
        "  matrix: { target: ['a', 'b'] },",
        "  cases: [{ id: 'm', input: 'hi', assert: [{ type: 'contains', value: 'x' }] }, { id: 'own', target: 'c', input: 'hi', assert: [{ type: 'contains', value: 'x' }] }],",
        '};',
      ].join('\n'),
    });
    const cases = await loadCases(paths, dir, defaults);
    expect(cases.map((c) => [c.key, c.targetName])).toEqual([
      ['ts/m [target=a]', 'a'],
      ['ts/m [target=b]', 'b'],
      ['ts/own', 'c'],
    ]);
  });

  it('bad --matrix and --target flags are user errors naming the flag', () => {
    expect(() => targetOverride({ matrix: ['temperature=x'] }, defaults.targets)).toThrow(/--matrix temperature=x: unknown matrix dimension "temperature"/);
    expect(() => targetOverride({ matrix: ['target=a,zz'] }, defaults.targets)).toThrow(/--matrix: unknown target "zz"/);
    expect(() => targetOverride({ matrix: ['target='] }, defaults.targets)).toThrow(/give the values/);
    expect(() => targetOverride({ target: 'zz' }, defaults.targets)).toThrow(/--target: unknown target "zz"/);
    expect(() => targetOverride({ target: 'a', matrix: ['target=b'] }, defaults.targets)).toThrow(/cannot be combined/);
    expect(targetOverride({ matrix: ['target=a, b', 'target=b,c'] }, defaults.targets)).toEqual({ matrix: { target: ['a', 'b', 'c'] } });
  });
});
