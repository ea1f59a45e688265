/** MCP servers for tests: the real memory server and a misbehaving fixture over stdio, and whether a pid is gone. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `@modelcontextprotocol/server-memory` run with this Node, its graph in `memoryFile`. */
export const memoryServer = (memoryFile: string) => ({
  command: process.execPath,
  args: [`${root}node_modules/@modelcontextprotocol/server-memory/dist/index.js`],
  env: { MEMORY_FILE_PATH: memoryFile },
});

/** test/fixtures/mcp/misbehaving-server.mjs: tools echo, pid, hang, crash, big (10 MB). */
export const misbehavingServer = () => ({
  command: process.execPath,
  args: [`${root}test/fixtures/mcp/misbehaving-server.mjs`],
  cwd: root,
});

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, is not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  return stat !== '' && !stat.startsWith('Z');
}

/**
 * Waits until `pid` is gone and says whether it went within 2 s. A SIGKILL is acted on when the
 * killed process is next scheduled, which on a busy machine is not at once.
 */
export async function goneAfterKill(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i += 1) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/**
 * A streamable-HTTP MCP server on 127.0.0.1 made of the SDK's own classes (stateless: a server per
 * request), with the memory server's `create_entities` and `read_graph` (its description given) over
 * one in-memory graph, and `big`, which answers 10 MB.
 */
export async function startHttpMemoryServer(readGraphDescription = 'Read the whole graph'): Promise<{ url: string; close(): Promise<void> }> {
  const [{ createServer }, { McpServer }, { StreamableHTTPServerTransport }, { z }] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('zod'),
  ]);
  const entities: { name: string; entityType: string; observations: string[] }[] = [];
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
  const entity = z.object({ name: z.string(), entityType: z.string(), observations: z.array(z.string()) });
  const build = () => {
    const server = new McpServer({ name: 'http-memory', version: '1.0.0' });
    server.registerTool('create_entities', { description: 'Create entities in the graph', inputSchema: { entities: z.array(entity) } }, ({ entities: added }) => {
      entities.push(...added);
      return text(JSON.stringify(added));
    });
    server.registerTool('read_graph', { description: readGraphDescription, inputSchema: {} }, () => text(JSON.stringify({ entities, relations: [] })));
    server.registerTool('big', { description: 'Answers 10 MB', inputSchema: {} }, () => text('x'.repeat(10 * 1024 * 1024)));
    return server;
  };
  const http = createServer((req, res) => {
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        // The runner's keep-alive connections would hold close() open.
        http.closeAllConnections();
      }),
  };
}

/** The pid of the live process whose command line contains `marker`, if one runs. */
export function pidWith(marker: string): number | undefined {
  const ps = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m && !m[2]!.startsWith('Z') && m[3]!.includes(marker)) return Number(m[1]);
  }
  return undefined;
}

/** `@modelcontextprotocol/server-everything` over stdio, run with this Node (tools get-sum, echo, get-structured-content, …). */
export const everythingServer = () => ({
  command: process.execPath,
  args: [`${root}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'],
});

/** test/fixtures/mcp/check-server.mjs: a tool list that breaks each of mcp-check's rules once. */
export const checkFixtureServer = () => ({
  command: process.execPath,
  args: [`${root}test/fixtures/mcp/check-server.mjs`],
  cwd: root,
});
