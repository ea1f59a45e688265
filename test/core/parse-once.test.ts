/**
 * PARSE_ONCE (zod without its generated fast path) is used for the schemas applied once a process:
 * the config and each eval file. What they accept, the values they give back and every issue they
 * report must be those of the default (generated) parser.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PARSE_ONCE } from '../../src/core/parse-once.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { EvalFileSchema, TsEvalFileSchema } from '../../src/suite/schema.js';

const agent = async (): Promise<string> => 'x';

const inputs: Array<[string, z.ZodType, unknown, boolean]> = [
  ['a valid config', ConfigSchema, { evals: ['evals/**/*.eval.yaml'], targets: { a: agent, b: { command: ['node', 'b.mjs'] } }, judge: { provider: 'fake' }, concurrency: 4 }, true],
  ['a config with bad fields', ConfigSchema, { evals: 3, targets: { a: { command: [] } }, concurrency: -1, unknownKey: true }, false],
  ['a valid YAML eval file', EvalFileSchema, { suite: 's', target: 'a', cases: [{ id: 'c', input: 'hi', assert: [{ type: 'contains', value: 'x' }] }] }, true],
  [
    'a YAML eval file with bad cases',
    EvalFileSchema,
    {
      suite: 's',
      cases: [
        { id: 1, assert: [{ type: 'contains' }, { type: 'nope' }] },
        { input: 'x', repeat: 0 },
      ],
    },
    false,
  ],
  ['a TS eval file with a custom check', TsEvalFileSchema, { suite: 's', target: 'a', cases: [{ id: 'c', input: 'hi', assert: [{ type: 'custom', name: 'n', fn: () => true }] }] }, true],
];

describe('PARSE_ONCE', () => {
  it.each(inputs)('%s: the same success, value and issues as the default parser', (_, schema, input, valid) => {
    const once = schema.safeParse(input, PARSE_ONCE);
    const jit = schema.safeParse(input);
    expect(once.success).toBe(valid);
    expect(jit.success).toBe(valid);
    expect(once.data).toEqual(jit.data);
    expect(once.error?.issues).toEqual(jit.error?.issues);
  });
});
