import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadYamlEvalFile } from '../../src/suite/load-yaml.js';
import { UserErrors } from '../../src/core/errors.js';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agent-evals-proto-')), 'x.eval.yaml');
  writeFileSync(path, text);
  return path;
}

const evalWith = (args: string) => ['suite: s', 'target: t', 'cases:', '  - id: a', '    input: hi', '    assert:', `      - { type: calledTool, tool: lookup, args: ${args} }`].join('\n');

describe('a __proto__ key in a YAML file', () => {
  it('is refused at its line: an args filter that kept only it would match any call', async () => {
    const err = await loadYamlEvalFile(file(evalWith('{ __proto__: { id: Z9 } }'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserErrors);
    const [first] = (err as UserErrors).errors;
    expect(first!.message).toContain('"__proto__" cannot be a key');
    expect(first!.line).toBe(7);
  });

  it('in block style too; a value spelling __proto__ is fine', async () => {
    const block = [
      'suite: s',
      'target: t',
      'cases:',
      '  - id: a',
      '    input: hi',
      '    assert:',
      '      - type: calledTool',
      '        tool: lookup',
      '        args:',
      '          __proto__:',
      '            id: Z9',
    ].join('\n');
    const err = await loadYamlEvalFile(file(block)).catch((e: unknown) => e);
    expect((err as UserErrors).errors[0]!.line).toBe(10);
    await expect(loadYamlEvalFile(file(evalWith('{ id: "__proto__" }')))).resolves.toBeDefined();
  });
});
