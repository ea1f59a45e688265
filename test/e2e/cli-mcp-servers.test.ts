/**
 * Model-agent targets with MCP servers, through the built CLI (in-process) and a fake OpenAI model
 * that calls `memory__create_entities` then `memory__read_graph`: the real memory server over stdio
 * (started once, ended with the run, on Ctrl-C too), a streamable-HTTP server the test runs, and a
 * server whose tools hang, crash and answer 10 MB (each a tool error naming the server and cause).
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, spawnCli, stripAnsi } from '../support/cli.js';
import { runCliInProcess, startCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { readResults } from '../support/results-helpers.js';
import { goneAfterKill, memoryServer, misbehavingServer, pidWith, startHttpMemoryServer } from '../support/mcp-servers.js';

afterAll(removeTempDirs);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const ENTITY = { name: 'Ada', entityType: 'person', observations: ['writes code'] };

/** The model: creates an entity, reads the graph, then answers with what the last tool result said. */
function memoryModel(hold?: (index: number) => Promise<void>): Promise<FakeOpenAI> {
  return startFakeOpenAI({
    ...(hold ? { hold } : {}),
    script: (body: { messages: Array<{ role: string; content?: string }> }) => {
      const tools = body.messages.filter((m) => m.role === 'tool');
      if (tools.length === 0) return { toolCalls: [{ name: 'memory__create_entities', args: { entities: [ENTITY] } }] };
      if (tools.length === 1) return { toolCalls: [{ name: 'memory__read_graph', args: {} }] };
      return { text: `graph: ${tools[1]!.content}` };
    },
  });
}

const EVAL = `suite: mem
target: agent
cases:
  - id: remember
    input: Remember Ada.
    assert:
      - type: toolOrder
        tools: [memory__create_entities, memory__read_graph]
      - type: calledTool
        tool: memory__create_entities
        args: { entities: [{ name: Ada, entityType: person, observations: [writes code] }] }
      - type: noToolErrors
      - type: contains
        value: Ada
`;

function project(servers: string, target = `{ model: 'openai:gpt-4.1-mini', mcpServers: { memory: 'memory' } }`, evalYaml = EVAL): string {
  return writeProject({
    'evals.config.mjs': `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', trace: 'full', mcpServers: ${servers}, targets: { agent: ${target} } };\n`,
    'evals/mem.eval.yaml': evalYaml,
  });
}

/**
 * The memory model, holding its second request (create_entities has run: the server is up) until
 * released; the server's pid (found by `marker`) is read there.
 */
async function holdSecondRequest(marker: string): Promise<{ reached: Promise<void>; release: () => void; pid: () => number | undefined }> {
  let pid: number | undefined;
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  fake = await memoryModel(async (index) => {
    if (index !== 1) return;
    pid = pidWith(marker);
    reach();
    await released;
  });
  return { reached, release, pid: () => pid };
}

const env = () => ({ OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake!.url });

/** The memory server over stdio, with a marker in its arguments that finds its process. */
function stdioMemory(dir: string): { servers: string; marker: string } {
  const server = memoryServer(join(dir, 'memory.jsonl'));
  const marker = `mcp-marker-${Math.random().toString(36).slice(2)}`;
  return { servers: `{ memory: ${JSON.stringify({ ...server, args: [...server.args, marker] })} }`, marker };
}

describe.skipIf(process.platform === 'win32')('model-agent targets with MCP servers', () => {
  it('the real memory server over stdio: the loop completes, toolOrder passes, the server is gone after the run, its stderr is in the run folder', async () => {
    let pid: number | undefined;
    // The second model request comes after create_entities ran: the server is up.
    fake = await memoryModel(async (index) => {
      if (index === 1) pid = pidWith(marker);
    });
    const dir = project('{}');
    const { servers, marker } = stdioMemory(dir);
    const projectDir = project(servers);
    const r = await runCliInProcess(['run', '--json', 'out.json'], { cwd: projectDir, env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const res = readResults(join(projectDir, 'out.json'));
    const trial = res.cases[0]!.trials[0]!;
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['toolOrder', 'passed'],
      ['calledTool', 'passed'],
      ['noToolErrors', 'passed'],
      ['contains', 'passed'],
    ]);
    expect(fake.count).toBe(3);
    // The model was offered the server's tools under the prefix.
    expect((fake.bodies[0] as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['memory__create_entities', 'memory__read_graph']));
    expect(pid).toBeGreaterThan(0);
    expect(await goneAfterKill(pid!)).toBe(true);
    const runs = join(projectDir, '.out', 'runs');
    const [runId] = readdirSync(runs);
    expect(readFileSync(join(runs, runId!, 'mcp-memory.stderr.log'), 'utf8')).toContain('Knowledge Graph MCP Server');
  });

  it('Ctrl-C mid-trial: the run ends interrupted and the stdio server is gone', async () => {
    const { servers, marker } = stdioMemory(project('{}'));
    const held = await holdSecondRequest(marker);
    const dir = project(servers);
    const cli = startCliInProcess(['run', '--json', 'out.json'], { cwd: dir, env: env() });
    await held.reached;
    expect(held.pid()).toBeGreaterThan(0);
    expect(cli.kill('SIGINT')).toBe(true);
    await cli.waitForStderr(/Interrupted/);
    held.release();
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(existsSync(join(dir, 'out.json'))).toBe(true);
    expect(await goneAfterKill(held.pid()!)).toBe(true);
  });

  it('a second Ctrl-C quits the spawned CLI at once: the stdio server’s group is killed with it', async () => {
    const { servers, marker } = stdioMemory(project('{}'));
    const held = await holdSecondRequest(marker);
    const dir = project(servers);
    const cli = spawnCli(['run', '--json', 'out.json'], { cwd: dir, env: env(), timeoutMs: 120_000 });
    try {
      await Promise.race([held.reached, cli.done]);
      expect(held.pid(), cli.stderr()).toBeGreaterThan(0);
      cli.child.kill('SIGINT');
      await cli.waitForStderr(/Interrupted/, 120_000);
      // The trial is still held: the teardown has not run, the exit itself must kill the group.
      cli.child.kill('SIGINT');
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(130);
      expect(await goneAfterKill(held.pid()!)).toBe(true);
    } finally {
      held.release();
    }
  });

  it.each(['--replay-tools', '--replay-tools-strict'])('%s on an MCP run: the recording offers the tools again and answers every call, the server never starts', async (flag) => {
    let replaying = false;
    let running: number | undefined;
    fake = await memoryModel(async (index) => {
      // The replay's second model request comes after its first tool call was answered.
      if (replaying && index === 4) running = pidWith(marker);
    });
    const dir = project('{}');
    const { servers, marker } = stdioMemory(dir);
    const projectDir = project(servers);
    const recorded = await runCliInProcess(['run', '--json', 'recorded.json'], { cwd: projectDir, env: env() });
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    const before = readResults(join(projectDir, 'recorded.json'));
    expect(Object.keys(before.run.mcpTools ?? {})).toEqual(['memory']);
    expect(before.run.mcpTools!.memory!.map((t) => t.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph']));
    const recordedCalls = before.cases[0]!.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(recordedCalls.map((c) => [c.name, c.server])).toEqual([
      ['memory__create_entities', 'memory'],
      ['memory__read_graph', 'memory'],
    ]);
    // The server wrote its graph; gone, a call that reached a server would write it again.
    const graph = join(dir, 'memory.jsonl');
    expect(existsSync(graph)).toBe(true);
    rmSync(graph);
    rmSync(join(projectDir, '.out', 'runs'), { recursive: true });

    replaying = true;
    const replayed = await runCliInProcess(['run', flag, 'recorded.json', '--json', 'replayed.json'], { cwd: projectDir, env: env() });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    const after = readResults(join(projectDir, 'replayed.json'));
    const trial = after.cases[0]!.trials[0]!;
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual(before.cases[0]!.trials[0]!.assertions.map((a) => [a.kind, 'passed']));
    expect(trial.toolTape).toEqual({ replayed: 2 });
    // The model was offered the server's tools as when recorded; the tools part compares equal.
    expect((fake.bodies[3] as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toEqual(
      (fake.bodies[0] as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name),
    );
    expect(after.cases[0]!.toolsFingerprint).toEqual(before.cases[0]!.toolsFingerprint);
    expect(after.run.mcpTools).toEqual(before.run.mcpTools);
    // Never started: no process, no stderr log in the run folder, no graph written.
    expect(running).toBeUndefined();
    const [runId] = readdirSync(join(projectDir, '.out', 'runs'));
    expect(readdirSync(join(projectDir, '.out', 'runs', runId!)).filter((f) => f.startsWith('mcp-'))).toEqual([]);
    expect(existsSync(graph)).toBe(false);
    // A re-judge of the recording keeps its lists: that file is a tape too.
    const rejudged = await runCliInProcess(['rejudge', 'recorded.json', '--json', 'rejudged.json'], { cwd: projectDir, env: env() });
    expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(0);
    expect(readResults(join(projectDir, 'rejudged.json')).run.mcpTools).toEqual(before.run.mcpTools);
  });

  it('a streamable-HTTP server the test runs (the SDK’s own server classes): the same loop passes', async () => {
    const http = await startHttpMemoryServer();
    try {
      fake = await memoryModel();
      const dir = project(`{ memory: { url: ${JSON.stringify(http.url)} } }`);
      const r = await runCliInProcess(['run', '--json', 'out.json'], { cwd: dir, env: env() });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const trial = readResults(join(dir, 'out.json')).cases[0]!.trials[0]!;
      expect(trial.assertions.every((a) => a.status === 'passed')).toBe(true);
      expect(trial.reply).toContain('Ada');
    } finally {
      await http.close();
    }
  });

  it('a server tool whose description changed since the baseline: tools changed naming it, exit 0', async () => {
    fake = await memoryModel();
    const serve = async (description: string, args: string[]) => {
      const http = await startHttpMemoryServer(description);
      try {
        writeFileSync(join(dir, 'evals.config.mjs'), configFor(http.url));
        return await runCliInProcess(args, { cwd: dir, env: env() });
      } finally {
        await http.close();
      }
    };
    const configFor = (url: string) =>
      `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', mcpServers: { memory: { url: ${JSON.stringify(url)} } }, targets: { agent: { model: 'openai:gpt-4.1-mini', mcpServers: { memory: 'memory' } } } };\n`;
    const dir = project('{}');
    const base = await serve('Read the whole graph', ['run', '--no-cache', '--save-baseline']);
    expect(base.code, base.stdout + base.stderr).toBe(0);
    const head = await serve('Read the whole knowledge graph', ['run', '--no-cache', '--baseline', 'main', '--json', 'head.json']);
    expect(head.code, head.stdout + head.stderr).toBe(0);
    expect(stripAnsi(head.stdout)).toMatch(/tools changed\s+mem\/remember\s+1\/1 → 1\/1 \(tool memory__read_graph changed\)/);
    const compared = (JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as { comparison: { cases: { key: string; kind: string }[] } }).comparison;
    expect(compared.cases.find((c) => c.key === 'mem/remember')?.kind).toBe('tools-changed');
  });

  describe('a misbehaving server: each trial fails naming the server and the cause; the run writes its results', () => {
    const BAD_EVAL = ['hang', 'crash', 'big'].map((t) => `  - id: ${t}\n    input: call ${t}\n    assert:\n      - type: noToolErrors\n`).join('');
    it.each([
      ['hang', 'MCP server "bad": tool hang failed: no answer within 300 ms (its timeoutMs)'],
      ['crash', 'MCP server "bad": tool crash failed: the server process exited (code 3)'],
      ['big', 'MCP server "bad": tool big failed: the server wrote a message larger than 65536 bytes (its maxResultBytes)'],
    ])('%s', async (tool, message) => {
      fake = await startFakeOpenAI({
        script: (body: { messages: Array<{ role: string }> }) => (body.messages.some((m) => m.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: `bad__${tool}`, args: {} }] }),
      });
      // Only the hang meets the small timeout: a 10 MB answer on a busy machine must not be cut by time.
      const server = { ...misbehavingServer(), timeoutMs: tool === 'hang' ? 300 : 120_000, maxResultBytes: 65536 };
      const dir = project(
        `{ bad: ${JSON.stringify(server)} }`,
        `{ model: 'openai:gpt-4.1-mini', mcpServers: { bad: 'bad' } }`,
        `suite: bad\ntarget: agent\ncases:\n${BAD_EVAL.split('  - id: ')
          .filter((c) => c.startsWith(tool))
          .map((c) => `  - id: ${c}`)
          .join('')}`,
      );
      const r = await runCliInProcess(['run', '--json', 'out.json'], { cwd: dir, env: env() });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const trial = readResults(join(dir, 'out.json')).cases[0]!.trials[0]!;
      expect(trial.verdict).toBe('failed');
      const calls = (trial.trace.steps ?? []).flatMap((s) => s.toolCalls ?? []);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ name: `bad__${tool}`, isError: true });
      expect(JSON.stringify(calls[0]!.result)).toContain(JSON.stringify(message).slice(1, -1));
      // A server that died says where its stderr (the why) was kept.
      if (tool === 'crash')
        expect(JSON.stringify(calls[0]!.result)).toMatch(new RegExp(`its stderr is in ${join(dir, '.out', 'runs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^/"]+/mcp-bad\\.stderr\\.log`));
    });
  });

  it('a server that cannot start fails the trial naming it and why; the run writes its results', async () => {
    fake = await memoryModel();
    const dir = project(`{ memory: { command: '/nonexistent/mcp-server-binary' } }`);
    const r = await runCliInProcess(['run', '--json', 'out.json'], { cwd: dir, env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const trial = readResults(join(dir, 'out.json')).cases[0]!.trials[0]!;
    expect(trial.error).toContain('MCP server "memory" could not be connected: could not start /nonexistent/mcp-server-binary');
    expect(fake.count).toBe(0);
  });

  it('an unknown server name is exit 2 naming the file and field, before any target runs', async () => {
    fake = await memoryModel();
    const dir = project('{}', `{ model: 'openai:gpt-4.1-mini', mcpServers: { memory: 'nope' } }`);
    const r = await runCliInProcess(['run'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('evals.config.mjs');
    expect(r.stderr).toContain('targets.agent.mcpServers.memory');
    expect(r.stderr).toContain('unknown MCP server "nope"');
    expect(fake.count).toBe(0);
  });

  it('a server with both command and url is exit 2 naming the field', async () => {
    fake = await memoryModel();
    const dir = project(`{ memory: { command: 'x', url: 'http://127.0.0.1:1/mcp' } }`);
    const r = await runCliInProcess(['run'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('evals.config.mjs');
    expect(r.stderr).toContain('mcpServers.memory: give "command" (a stdio server) or "url" (a streamable-HTTP server), not both');
    expect(fake.count).toBe(0);
  });

  it('a server that is neither kind says what a server needs, not zod\'s bare "Invalid input" (on the config, a target, an mcp target)', async () => {
    fake = await memoryModel();
    const misspelt = await runCliInProcess(['run'], { cwd: project(`{ memory: { comand: 'x' } }`), env: env() });
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain('mcpServers.memory: an MCP server needs "command" (stdio) or "url" (streamable HTTP); it has "comand"');
    const own = await runCliInProcess(['run'], { cwd: project('{}', `{ model: 'openai:gpt-4.1-mini', mcpServers: { memory: { command: 'x', url: 'http://127.0.0.1:1/mcp' } } }`), env: env() });
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('mcpServers.memory: give "command" (a stdio server) or "url" (a streamable-HTTP server), not both');
    const target = await runCliInProcess(['run'], { cwd: project('{}', `{ mcp: { command: 'x', url: 'http://127.0.0.1:1/mcp' } }`), env: env() });
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('mcp: give "command" (a stdio server) or "url" (a streamable-HTTP server), not both');
    // A URL without its scheme parses as one of scheme `localhost:`: refused at load, not at the first trial.
    const schemeless = await runCliInProcess(['run'], { cwd: project(`{ memory: { url: 'localhost:3000/mcp' } }`), env: env() });
    expect(schemeless.code).toBe(2);
    expect(schemeless.stderr).toContain('evals.config.mjs: mcpServers.memory.url: expected an http:// or https:// URL');
    for (const r of [misspelt, own, target, schemeless]) expect(r.stderr).not.toContain('Invalid input');
    expect(fake.count).toBe(0);
  });
});
