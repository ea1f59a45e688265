/**
 * fromMastra over a real Mastra agent whose tools come from Mastra's MCPClient (`@mastra/mcp`)
 * connected over stdio to the real `@modelcontextprotocol/server-memory`, the model being the fake
 * OpenAI server: the MCP calls are recorded with their server.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { MCPClient } from '@mastra/mcp';
import { createOpenAI } from '@ai-sdk/openai-v5';
import { fromMastra } from '../../src/adapters/mastra.js';
import { AgentRunSchema, toolCallsOf } from '../../src/core/agent-run.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { ENTITY, memoryScript, memoryServerProcess } from '../support/mcp-memory-server.js';

let fake: FakeProvider | undefined;
let mcp: MCPClient | undefined;
afterEach(async () => {
  await mcp?.disconnect();
  await fake?.close();
  mcp = undefined;
  fake = undefined;
});
afterAll(removeTempDirs);

describe('fromMastra with MCP tools (MCPClient, server-memory over stdio)', () => {
  it('records each MCP tool call, under the name getTools() gave it, with its arguments, result and server', async () => {
    fake = await startFakeOpenAI({ script: memoryScript('memory_') });
    mcp = new MCPClient({ id: 'mastra-mcp-test', servers: { memory: memoryServerProcess(tempDir()) } });
    const tools = await toolsOf(mcp);
    const model = createOpenAI({ baseURL: fake.url, apiKey: 'k' }).chat('gpt-4.1-mini');
    // Mastra 1.x requires the agent's id; 0.x takes it too.
    const memoryAgent = new Agent({ id: 'keeper', name: 'keeper', instructions: 'Use the memory.', model, tools });
    const agent = new Mastra({ agents: { keeper: memoryAgent }, logger: false }).getAgent('keeper');
    const result = await agent.generate('Remember Ada.', { maxSteps: 4 });

    const run = fromMastra(result, { mcpServers: await toolsetsOf(mcp) });

    expect(AgentRunSchema.parse(run)).toEqual(run);
    const calls = toolCallsOf(run);
    expect(calls.map((c) => [c.name, c.server, c.isError])).toEqual([
      ['memory_create_entities', 'memory', false],
      ['memory_read_graph', 'memory', false],
    ]);
    expect(calls[0]!.args).toEqual({ entities: [ENTITY] });
    expect(JSON.stringify(calls[1]!.result)).toContain('wrote the first program');
    expect(run.reply).toBe('Ada is in the graph.');
  });
});

/**
 * `@mastra/mcp` 2 (the newest line) renamed `getTools`/`getToolsets` to `listTools`/`listToolsets`;
 * the root line's 0.14 has only the old names, so its types know only those.
 */
type EitherClient = MCPClient & { listTools?: MCPClient['getTools']; listToolsets?: MCPClient['getToolsets'] };
const toolsOf = (c: EitherClient) => (c.listTools ? c.listTools() : c.getTools());
const toolsetsOf = (c: EitherClient) => (c.listToolsets ? c.listToolsets() : c.getToolsets());
