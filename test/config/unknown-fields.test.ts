/**
 * A misspelt key is named with the key it most likely meant, wherever zod reports it: the config's
 * top level and nested settings, a target's fields, an eval file's case and assertion fields.
 */
import { describe, expect, it } from 'vitest';
import { parseUserConfig } from '../../src/config/load-config.js';
import { UserError, UserErrors } from '../../src/core/errors.js';
import { closestName } from '../../src/core/closest-name.js';
import { parseModelSpec } from '../../src/providers/model-spec.js';
import { parseEvalFile } from '../../src/suite/load-yaml.js';
import { validateTsDefinitions } from '../../src/suite/load-ts.js';

function messages(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof UserErrors) return err.errors.map((e) => e.message);
    if (err instanceof UserError) return [err.message];
    throw err;
  }
  throw new Error('expected a refusal');
}

async function yamlMessages(text: string): Promise<string[]> {
  try {
    await parseEvalFile(text, 'a.eval.yaml');
  } catch (err) {
    if (err instanceof UserErrors) return err.errors.map((e) => e.message);
    throw err;
  }
  throw new Error('expected a refusal');
}

const target = async () => 'ok';

describe('unknown fields name the field meant', () => {
  it('config: the top level, a nested setting and a target kind each suggest from their own fields', () => {
    expect(messages(() => parseUserConfig({ concurency: 4, targets: { a: target } }, 'evals.config.mjs'))).toEqual(['evals.config.mjs: unknown field "concurency" (did you mean "concurrency"?)']);
    expect(messages(() => parseUserConfig({ targets: { a: target }, redteam: { polcy: 'no refunds' } }, 'evals.config.mjs'))).toEqual([
      'evals.config.mjs: redteam: unknown field "polcy" (did you mean "policy"?)',
    ]);
    const [model] = messages(() => parseUserConfig({ targets: { m: { model: 'openai:gpt-5.4-mini', maxstep: 3 } } }, 'evals.config.mjs'));
    expect(model).toMatch(/^evals\.config\.mjs: targets\.m: expected \{ model: .*\(a model-agent target\): unknown field "maxstep" \(did you mean "maxSteps"\?\)$/);
    const [command] = messages(() => parseUserConfig({ targets: { c: { command: ['node', 'a.js'], timeoutMS: 5 } } }, 'evals.config.mjs'));
    expect(command).toMatch(/\(a command target\): unknown field "timeoutMS" \(did you mean "timeoutMs"\?\)$/);
  });

  it('a judge spec object without its model: the forms a judge takes, then the missing model and the key near it', () => {
    const [judge] = messages(() => parseUserConfig({ targets: { a: target }, judge: { provider: 'openai', modle: 'gpt-5.4-mini' } }, 'evals.config.mjs'));
    expect(judge).toMatch(/^evals\.config\.mjs: judge: expected a judge: .*; got an object with keys provider, modle: it has no "model" \(is "modle" meant\?\)$/);
  });

  it('a model spec object (a judge, a model target): its own fields', () => {
    expect(() => parseModelSpec({ provider: 'openai', model: 'gpt-5.4-mini', temprature: 0 })).toThrow(
      'invalid model spec {"provider":"openai","model":"gpt-5.4-mini","temprature":0}: unknown field "temprature" (did you mean "temperature"?)',
    );
  });

  it('a misspelt provider in a "provider:model" string names the provider meant', () => {
    expect(() => parseModelSpec('openia:gpt-5.4-mini')).toThrow(/with provider one of: openai, .*; did you mean "openai"\?$/);
    expect(() => parseModelSpec('acme:gpt-5.4-mini')).toThrow(/with provider one of: openai, [^;]*$/);
  });

  it('a key near no field gets no guess', () => {
    expect(messages(() => parseUserConfig({ banana: 1, targets: { a: target } }, 'evals.config.mjs'))).toEqual(['evals.config.mjs: unknown field "banana"']);
  });

  it('YAML eval file: a case field, and an assertion field from that assertion type’s own fields', async () => {
    const text = 'suite: s\ntarget: a\ncases:\n  - { id: one, input: x, asert: [{ type: contains, value: ok }] }\n  - { id: two, input: x, assert: [{ type: maxSteps, maxx: 2 }] }\n';
    const found = await yamlMessages(text);
    expect(found).toContain('a.eval.yaml:4: cases[0].asert: unknown field "asert" (did you mean "assert"?)');
    expect(found).toContain('a.eval.yaml:5: cases[1].assert[0].maxx: unknown field "maxx" (did you mean "max"?)');
  });

  it('TypeScript eval definition: the suite-level field', () => {
    const def = { suite: 's', target: 'a', cases: [{ id: 'one', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }], repeats: 3 };
    expect(messages(() => validateTsDefinitions([def], { display: 'a.eval.ts', text: '', many: false }))[0]).toMatch(/unknown field "repeats" \(did you mean "repeat"\?\)$/);
  });

  it('closestName: case is ignored; about a third of the letters may differ; the nearest wins', () => {
    expect(closestName('MAXSTEPS', ['maxSteps', 'maxTokens'])).toBe('maxSteps');
    expect(closestName('conc', ['concurrency'])).toBeUndefined();
    expect(closestName('repeats', ['repeat', 'retries'])).toBe('repeat');
    expect([closestName('x', ['y']), closestName('X', ['x'])]).toEqual([undefined, 'x']);
    expect([closestName('modle', ['model']), closestName('mdl', ['model'])]).toEqual(['model', undefined]);
    // Two neighbours swapped count as one edit: short names get their guess too.
    expect([closestName('rnu', ['run', 'init']), closestName('lsit', ['list']), closestName('nru', ['run'])]).toEqual(['run', 'list', undefined]);
  });
});
