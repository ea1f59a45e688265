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
