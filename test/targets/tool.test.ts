/** tool(): the JSON Schema the provider sees, argument validation, and errors as results. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolState, executeTool, isTool, tool, type ToolContext } from '../../src/targets/tool.js';
import { never, trialInput } from './helpers.js';

const ctx = (): ToolContext => ({ signal: never, trial: trialInput('x'), state: createToolState() });

describe('tool()', () => {
  const lookup = tool({
    name: 'orders_lookup',
    description: 'Find an order',
    parameters: z.object({ orderId: z.string().describe('like A1049'), verbose: z.boolean().default(false) }),
    execute: ({ orderId, verbose }) => ({ orderId, verbose }),
  });

  it('describes its parameters as JSON Schema of what the model must send (defaults are optional)', () => {
    expect(isTool(lookup)).toBe(true);
    expect(isTool({ name: 'x', execute() {} })).toBe(false);
    expect(lookup.jsonSchema).toEqual({
      type: 'object',
      properties: { orderId: { type: 'string', description: 'like A1049' }, verbose: { type: 'boolean', default: false } },
      required: ['orderId'],
    });
  });

  it('validates arguments before execute, which gets the parsed values', async () => {
    expect(await executeTool(lookup, { orderId: 'A1' }, ctx())).toEqual({ result: { orderId: 'A1', verbose: false }, isError: false });
    const bad = await executeTool(lookup, { orderId: 7 }, ctx());
    expect(bad.isError).toBe(true);
    expect(bad.result).toMatch(/^invalid arguments for orders_lookup: orderId: .*string/i);
    // Arguments the model wrote as broken JSON arrive as the raw string.
    expect((await executeTool(lookup, '{"orderId": ', ctx())).isError).toBe(true);
  });

  it('turns a throwing execute into an error result, unless the trial was aborted', async () => {
    const failing = tool({
      name: 'boom',
      parameters: z.object({}),
      execute: () => {
        throw new Error('service down');
      },
    });
    expect(await executeTool(failing, {}, ctx())).toEqual({ result: 'service down', isError: true });
    const ac = new AbortController();
    ac.abort();
    await expect(executeTool(failing, {}, { ...ctx(), signal: ac.signal })).rejects.toThrow('service down');
  });

  it('gives the tools of one trial a shared state, fresh for each trial', async () => {
    let made = 0;
    const counter = tool({ name: 'count', parameters: z.object({}), execute: (_a, c) => ++c.state('n', () => ({ made: ++made, n: 0 })).n });
    const a = ctx();
    await executeTool(counter, {}, a);
    expect((await executeTool(counter, {}, a)).result).toBe(2);
    expect((await executeTool(counter, {}, ctx())).result).toBe(1);
    expect(made).toBe(2);
  });

  it('rejects names the providers refuse and parameters that are not an object schema', () => {
    expect(() => tool({ name: 'has space', parameters: z.object({}), execute: () => 1 })).toThrow(/1-64 letters/);
    expect(() => tool({ name: 'x', parameters: z.string(), execute: () => 1 })).toThrow(/zod object schema/);
    expect(() => tool({ name: 'x', parameters: z.object({ when: z.date() }), execute: () => 1 })).toThrow(/cannot be expressed as JSON Schema/);
    expect(() => tool({ name: 'x', parameters: { type: 'object' } as never, execute: () => 1 })).toThrow(/must be a zod schema/);
  });
});
