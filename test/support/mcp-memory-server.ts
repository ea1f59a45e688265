/**
 * The real `@modelcontextprotocol/server-memory` as a stdio MCP server for tests: its script run with
 * this Node, its knowledge graph in a temporary file, and a fake-model script that creates an entity
 * and reads the graph back.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Script } from './fake-server.js';

const require = createRequire(import.meta.url);

/** The server's entry script (its package's `bin`). */
export const memoryServerScript = join(require.resolve('@modelcontextprotocol/server-memory/package.json'), '..', 'dist', 'index.js');

/** Command, arguments and environment that start the server with its graph in `dir`. */
export function memoryServerProcess(dir: string): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [memoryServerScript],
    env: { PATH: process.env.PATH ?? '', MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
}

export const ENTITY = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };

/** A model that calls `<prefix>create_entities`, then `<prefix>read_graph`, then answers. */
export function memoryScript(prefix = '', model = 'gpt-4.1-mini-2025-04-14'): Script {
  return [
    { toolCalls: [{ id: 'm1', name: `${prefix}create_entities`, args: { entities: [ENTITY] } }], usage: { input: 50, output: 10 }, model },
    { toolCalls: [{ id: 'm2', name: `${prefix}read_graph`, args: {} }], usage: { input: 80, output: 5 }, model },
    { text: 'Ada is in the graph.', usage: { input: 120, output: 6 }, model },
  ];
}
