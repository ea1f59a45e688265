import { describe, expect, it } from 'vitest';
import { readMcpCase } from '../../src/targets/mcp-case.js';
import { replyOfResult } from '../../src/targets/mcp-result.js';
import { runMcpCalls, type McpCaller } from '../../src/targets/mcp-calls.js';
import { spentOf } from '../../src/core/errors.js';

describe('the input of an mcp case', () => {
  it('is one call or a list of calls, as JSON', () => {
    expect(readMcpCase('{"tool":"get-sum","arguments":{"a":1,"b":2}}')).toEqual({ ok: true, calls: [{ tool: 'get-sum', arguments: { a: 1, b: 2 } }] });
    expect(readMcpCase('[{"tool":"a"},{"tool":"b","expectError":true}]')).toEqual({ ok: true, calls: [{ tool: 'a' }, { tool: 'b', expectError: true }] });
  });

  it('names what is wrong, and where', () => {
    expect(readMcpCase('add 1 and 2')).toEqual({ ok: false, error: expect.stringContaining('the input of an mcp case is JSON') });
    expect(readMcpCase('[{"tool":"a"},{"tool":"b","args":{}}]')).toEqual({ ok: false, error: expect.stringContaining('at [1]') });
    expect(readMcpCase('[]')).toEqual({ ok: false, error: expect.stringContaining('the input of an mcp case') });
  });
});

describe('a tool result as the reply', () => {
  it('is the structured content as JSON when there is some, else the text blocks joined', () => {
    expect(replyOfResult({ content: [{ type: 'text', text: '{"t":1}' }], structuredContent: { t: 1 } })).toBe('{"t":1}');
    expect(
      replyOfResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', mimeType: 'image/png' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\n[image image/png]\ntwo');
    expect(replyOfResult({})).toBe('');
  });
});

/** A connection whose every tool answers as `answer` says (the real server is in test/e2e/cli-mcp-target.test.ts). */
const caller = (answer: (tool: string) => Awaited<ReturnType<McpCaller['callTool']>>): McpCaller => ({ callTool: async (tool) => answer(tool) });
const ok = (text: string, structuredContent?: Record<string, unknown>) => ({ ok: true as const, result: { content: [{ type: 'text', text }], ...(structuredContent ? { structuredContent } : {}) } });
const failed = (message: string) => ({ ok: false as const, error: { message } });
const signal = new AbortController().signal;

describe('the calls of one trial', () => {
  it('each call is on the trajectory; the reply is the last result', async () => {
    const run = await runMcpCalls(
      caller((t) => ok(`did ${t}`)),
      new Map(),
      [{ tool: 'a', arguments: { x: 1 } }, { tool: 'b' }],
      { signal },
    );
    expect(run.reply).toBe('did b');
    expect(run.steps?.map((s) => s.toolCalls?.map((c) => [c.name, c.args, c.result, c.isError]))).toEqual([[['a', { x: 1 }, 'did a', undefined]], [['b', {}, 'did b', undefined]]]);
  });

  it('a tool error fails the trial with the call on its trajectory, unless the call expects one', async () => {
    const err = await runMcpCalls(
      caller(() => failed('MCP server "s": tool a returned an error: bad')),
      new Map(),
      [{ tool: 'a' }],
      { signal },
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe('tool a: MCP server "s": tool a returned an error: bad');
    expect(spentOf(err).run?.steps?.[0]?.toolCalls?.[0]).toMatchObject({ name: 'a', isError: true });
    const expected = await runMcpCalls(
      caller(() => failed('invalid arguments')),
      new Map(),
      [{ tool: 'a', expectError: true }],
      { signal },
    );
    expect(expected.reply).toBe('invalid arguments');
    expect(expected.steps?.[0]?.toolCalls?.[0]?.isError).toBe(true);
    await expect(
      runMcpCalls(
        caller(() => ok('fine')),
        new Map(),
        [{ tool: 'a', expectError: true }],
        { signal },
      ),
    ).rejects.toThrow('tool a was expected to be a tool error, and succeeded');
  });

  it("checkOutputSchema holds the structured content to the tool's declared outputSchema", async () => {
    const tools = new Map([['w', { name: 'w', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] } }]]);
    const good = await runMcpCalls(
      caller(() => ok('{"t":3}', { t: 3 })),
      tools,
      [{ tool: 'w', checkOutputSchema: true }],
      { signal },
    );
    expect(good.reply).toBe('{"t":3}');
    await expect(
      runMcpCalls(
        caller(() => ok('{"t":"hot"}', { t: 'hot' })),
        tools,
        [{ tool: 'w', checkOutputSchema: true }],
        { signal },
      ),
    ).rejects.toThrow(/does not match the tool's outputSchema: \/t must be number/);
    await expect(
      runMcpCalls(
        caller(() => ok('x')),
        new Map(),
        [{ tool: 'w', checkOutputSchema: true }],
        { signal },
      ),
    ).rejects.toThrow('declares no outputSchema');
  });
});
