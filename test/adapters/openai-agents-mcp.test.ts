/**
 * fromOpenAIAgents with openAIAgentsTracing on a real `@openai/agents` run whose agent takes the real
 * `@modelcontextprotocol/server-memory` as an `MCPServerStdio` in `mcpServers`, the model being the fake
 * OpenAI server: the MCP calls are recorded with their server (read from the function spans).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, MCPServerStdio, OpenAIProvider, Runner, setDefaultOpenAITracingExporter, setTraceProcessors, setTracingDisabled } from '@openai/agents';
import { fromOpenAIAgents, openAIAgentsTracing, type OpenAIAgentsTracing } from '../../src/adapters/openai-agents.js';
import { AgentRunSchema, toolCallsOf } from '../../src/core/agent-run.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { userOpenAI } from '../support/framework-line.js';
import type { FakeProvider } from '../support/fake-server.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { ENTITY, memoryScript, memoryServerProcess } from '../support/mcp-memory-server.js';

let fake: FakeProvider | undefined;
let server: MCPServerStdio | undefined;
let tracing: OpenAIAgentsTracing;
beforeAll(() => {
  tracing = openAIAgentsTracing();
  // NODE_ENV=test turns the SDK's tracing off; only our processor runs (no exporter, no network).
  setTraceProcessors([tracing]);
  setTracingDisabled(false);
});
afterEach(async () => {
  await server?.close();
  await fake?.close();
  server = undefined;
  fake = undefined;
});
afterAll(() => {
  tracing.dispose();
  removeTempDirs();
  // What importing the SDK set up, under NODE_ENV=test: its default exporter, tracing off.
  setDefaultOpenAITracingExporter();
  setTracingDisabled(true);
});

describe('fromOpenAIAgents with MCP tools (MCPServerStdio, server-memory)', () => {
  it('records each MCP tool call with its name, arguments, result and server', async () => {
    fake = await startFakeOpenAI({ script: memoryScript() });
    const UserOpenAI = await userOpenAI();
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: new UserOpenAI({ baseURL: fake.url, apiKey: 'sk-fake' }) }) });
    server = new MCPServerStdio({ name: 'memory', ...memoryServerProcess(tempDir()) });
    await server.connect();
    const agent = new Agent({ name: 'a', instructions: 'Use the memory.', model: 'gpt-4.1-mini', mcpServers: [server] });

    const run = fromOpenAIAgents(await runner.run(agent, 'Remember Ada.'));

    expect(AgentRunSchema.parse(run)).toEqual(run);
    const calls = toolCallsOf(run);
    expect(calls.map((c) => [c.name, c.server, c.isError])).toEqual([
      ['create_entities', 'memory', undefined],
      ['read_graph', 'memory', undefined],
    ]);
    expect(calls[0]!.args).toEqual({ entities: [ENTITY] });
    // The SDK hands the tool's single content item on as the output: the graph read back holds the entity.
    const graph = calls[1]!.result as { type: string; text: string };
    expect(graph.type).toBe('text');
    expect(JSON.parse(graph.text)).toMatchObject({ entities: [ENTITY] });
    expect(run.reply).toBe('Ada is in the graph.');
  });
});
