/**
 * The MCP client against real servers: the memory server over stdio in its own process group, and a
 * fixture whose tools hang, crash and answer 10 MB. Every failure is a value naming the server and
 * the cause; the bounds are the configured timeout and size, never the clock.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcpServer, resultText, type McpConnection } from '../../src/targets/mcp-client.js';
import { goneAfterKill, memoryServer, misbehavingServer, startHttpMemoryServer } from '../support/mcp-servers.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const connect = (name: string, server: Parameters<typeof connectMcpServer>[0]['server'], extra: { stderrFile?: string } = {}) =>
  connectMcpServer({ name, server, rootDir: process.cwd(), env: process.env, ...extra });

describe.skipIf(process.platform === 'win32')('MCP client', () => {
  it('lists and calls the memory server over stdio; close ends its process group; stderr goes to the file', async () => {
    const dir = tempDir();
    const stderrFile = join(dir, 'memory.stderr.log');
    const c = await connect('memory', memoryServer(join(dir, 'memory.jsonl')), { stderrFile });
    const pid = c.pid!;
    expect(pid).toBeGreaterThan(0);
    expect((await c.listTools()).map((t) => t.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph']));
    const created = await c.callTool('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['writes code'] }] });
    expect(created.ok).toBe(true);
    const graph = await c.callTool('read_graph', {});
    expect(graph.ok && resultText(graph.result)).toContain('Ada');
    await c.close();
    expect(await goneAfterKill(pid)).toBe(true);
    expect(readFileSync(stderrFile, 'utf8')).toContain('Knowledge Graph MCP Server');
  });

  it('an isError result is a tool error naming the server', async () => {
    const c = await connect('memory', memoryServer(join(tempDir(), 'm.jsonl')));
    try {
      const out = await c.callTool('no_such_tool', {});
      expect(out).toMatchObject({ ok: false, error: { server: 'memory', cause: 'tool-error' } });
      expect(!out.ok && out.error.message).toMatch(/^MCP server "memory": tool no_such_tool returned an error: .*not found/);
    } finally {
      await c.close();
    }
  });

  it('a server that dies at start with no log file (listing tools, mcp-check) is reported with the last lines of its stderr', async () => {
    const script = "console.error('starting'); console.error('Error: Cannot find module ./db.js'); process.exit(3)";
    await expect(connect('broken', { command: process.execPath, args: ['-e', script] })).rejects.toThrow(
      'MCP server "broken" could not be connected: the server process exited (code 3); its stderr ended: starting | Error: Cannot find module ./db.js',
    );
  });

  it('a secret the dying server prints (its configured env, an API key of the environment) is masked in the quoted lines', async () => {
    const script = "console.error('token=' + process.env.DB_TOKEN + ' key=' + process.env.OPENAI_API_KEY); process.exit(4)";
    const err = await connectMcpServer({
      name: 'leaky',
      server: { command: process.execPath, args: ['-e', script], env: { DB_TOKEN: 'config-db-token-123456' } },
      rootDir: process.cwd(),
      env: { ...process.env, OPENAI_API_KEY: 'sk-env-secret-abcdef123456' },
    }).then(
      () => undefined,
      (e: unknown) => (e as Error).message,
    );
    expect(err).toContain('the server process exited (code 4); its stderr ended: token=');
    expect(err).not.toContain('config-db-token-123456');
    expect(err).not.toContain('sk-env-secret-abcdef123456');
  });

  describe('a misbehaving server', () => {
    let c: McpConnection;
    afterAll(() => c?.close());

    it('a call that hangs fails with the server and its timeoutMs named', async () => {
      c = await connect('bad', { ...misbehavingServer(), timeoutMs: 200 });
      const out = await c.callTool('hang', {});
      expect(out).toMatchObject({ ok: false, error: { server: 'bad', tool: 'hang', cause: 'timeout' } });
      expect(!out.ok && out.error.message).toBe('MCP server "bad": tool hang failed: no answer within 200 ms (its timeoutMs)');
    });

    it('a server that exits mid-call fails the call naming the exit; the next call starts it again', async () => {
      const pid = c.pid!;
      // Calls other than the hang get a generous bound: time must not decide them.
      const out = await c.callTool('crash', {}, { timeoutMs: 120_000 });
      expect(out).toMatchObject({ ok: false, error: { server: 'bad', cause: 'connection' } });
      expect(!out.ok && out.error.message).toContain('MCP server "bad": tool crash failed: the server process exited (code 3)');
      expect(await goneAfterKill(pid)).toBe(true);
      const again = await c.callTool('echo', { text: 'back' }, { timeoutMs: 120_000 });
      expect(again.ok && resultText(again.result)).toBe('back');
      expect(c.pid).not.toBe(pid);
    });

    it('a 10 MB answer over the bound fails naming the bound; the server is stopped and the next call restarts it', async () => {
      await c.close();
      c = await connect('bad', { ...misbehavingServer(), maxResultBytes: 64 * 1024 });
      const pid = c.pid!;
      const out = await c.callTool('big', {});
      expect(out).toMatchObject({ ok: false, error: { server: 'bad', tool: 'big', cause: 'too-large' } });
      expect(!out.ok && out.error.message).toContain('larger than 65536 bytes (its maxResultBytes)');
      expect(await goneAfterKill(pid)).toBe(true);
      expect((await c.callTool('echo', { text: 'ok' })).ok).toBe(true);
    });

    it('the caller’s abort throws its reason (the trial is over), not a tool error', async () => {
      const ac = new AbortController();
      const call = c.callTool('hang', {}, { signal: ac.signal, timeoutMs: 60_000 });
      ac.abort(new Error('trial timed out'));
      await expect(call).rejects.toThrow('trial timed out');
    });
  });

  it('over streamable HTTP: lists and calls; a 10 MB answer over maxResultBytes fails naming the bound, and the next call reconnects', async () => {
    const http = await startHttpMemoryServer();
    const c = await connect('web', { url: http.url, maxResultBytes: 64 * 1024, timeoutMs: 120_000 });
    try {
      expect(c.pid).toBeUndefined();
      expect((await c.listTools()).map((t) => t.name)).toEqual(['create_entities', 'read_graph', 'big']);
      const out = await c.callTool('big', {});
      expect(out).toMatchObject({ ok: false, error: { server: 'web', tool: 'big', cause: 'too-large' } });
      expect(!out.ok && out.error.message).toContain('MCP server "web": tool big failed: the server sent a response larger than 65536 bytes (its maxResultBytes)');
      const graph = await c.callTool('read_graph', {});
      expect(graph.ok && resultText(graph.result)).toContain('"entities"');
    } finally {
      await c.close();
      await http.close();
    }
  });

  it('a command that cannot start is an error naming the server', async () => {
    await expect(connect('nope', { command: join(tempDir(), 'missing-binary') })).rejects.toThrow(/^MCP server "nope" could not be connected: could not start/);
  });
});
