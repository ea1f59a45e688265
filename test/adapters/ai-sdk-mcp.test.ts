/**
 * fromAISDK over a real AI SDK agent whose tools come from the AI SDK's MCP client (`@ai-sdk/mcp`, the
 * package on both lines) connected over stdio to the real `@modelcontextprotocol/server-memory`, the
 * model being the fake OpenAI server: the MCP calls are recorded with their server.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createOpenAI } from '@ai-sdk/openai';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport as StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, stepCountIs } from 'ai';
import { fromAISDK } from '../../src/adapters/ai-sdk.js';
import { AgentRunSchema, toolCallsOf } from '../../src/core/agent-run.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { ENTITY, memoryScript, memoryServerProcess } from '../support/mcp-memory-server.js';

let fake: FakeProvider | undefined;
let client: Awaited<ReturnType<typeof createMCPClient>> | undefined;
afterEach(async () => {
  await client?.close();
  await fake?.close();
  client = undefined;
  fake = undefined;
});
afterAll(removeTempDirs);

describe('fromAISDK with MCP tools (@ai-sdk/mcp, server-memory over stdio)', () => {
  it('records each MCP tool call with its name, arguments, result and server', async () => {
    fake = await startFakeOpenAI({ script: memoryScript() });
    const provider = createOpenAI({ baseURL: fake.url, apiKey: 'sk-test' });
    client = await createMCPClient({ transport: new StdioMCPTransport({ ...memoryServerProcess(tempDir()), stderr: 'ignore' }) });
    const memoryTools = await client.tools();
    const result = await generateText({ model: provider.chat('gpt-4.1-mini'), prompt: 'Remember Ada.', tools: memoryTools, stopWhen: stepCountIs(5) });

    const run = fromAISDK(result, { mcpServers: { memory: memoryTools } });

    expect(AgentRunSchema.parse(run)).toEqual(run);
    const calls = toolCallsOf(run);
    expect(calls.map((c) => [c.name, c.server, c.isError])).toEqual([
      ['create_entities', 'memory', false],
      ['read_graph', 'memory', false],
    ]);
    expect(calls[0]!.args).toEqual({ entities: [ENTITY] });
    // The MCP CallToolResult as the server sent it: the graph read back holds the entity created.
    expect(JSON.stringify(calls[0]!.result)).toContain('"content"');
    const graph = (calls[1]!.result as { content: { type: string; text: string }[] }).content[0]!;
    expect(JSON.parse(graph.text)).toMatchObject({ entities: [ENTITY] });
    expect(run.reply).toBe('Ada is in the graph.');
  });

  it('records an MCP result with isError: true as a tool error, and a local tool without a server', async () => {
    fake = await startFakeOpenAI({
      script: [
        { toolCalls: [{ id: 'e1', name: 'create_entities', args: { entities: 'not a list' } }], usage: { input: 5, output: 5 } },
        { text: 'Could not.', usage: { input: 5, output: 5 } },
      ],
    });
    const provider = createOpenAI({ baseURL: fake.url, apiKey: 'sk-test' });
    client = await createMCPClient({ transport: new StdioMCPTransport({ ...memoryServerProcess(tempDir()), stderr: 'ignore' }) });
    const memoryTools = await client.tools();
    const result = await generateText({ model: provider.chat('gpt-4.1-mini'), prompt: 'Remember.', tools: memoryTools, stopWhen: stepCountIs(3) });

    const [call] = toolCallsOf(fromAISDK(result, { mcpServers: { memory: Object.keys(memoryTools) } }));
    // The server refused the arguments with an `isError` result (the AI SDK's MCP client does not throw).
    expect(call).toMatchObject({ name: 'create_entities', server: 'memory', isError: true, result: { isError: true } });
    expect(toolCallsOf(fromAISDK(result))[0]).not.toHaveProperty('server');
  });
});
