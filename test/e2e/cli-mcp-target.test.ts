/**
 * An `mcp` target against the real `@modelcontextprotocol/server-everything` over stdio (the CLI's
 * `main`, in-process): a case calling its `get-sum` tool passes on the result; a call with arguments
 * the schema refuses is a tool error on the trajectory, failing the case unless it expects one;
 * `checkOutputSchema` holds a result to the tool's declared outputSchema; `list` shows the server's
 * tools and `mcp-check` reports them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { caseOf, readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';
import { checkFixtureServer, everythingServer } from '../support/mcp-servers.js';

afterAll(removeTempDirs);

const CONFIG = `export default {
  evals: ['evals/**/*.eval.yaml'],
  outputDir: '.out',
  mcpServers: { everything: ${JSON.stringify(everythingServer())} },
  targets: { tools: { mcp: 'everything', timeoutMs: 20000 } },
};
`;

const SUITE = `suite: mcp
target: tools
cases:
  - id: sum
    input: '{"tool": "get-sum", "arguments": {"a": 2, "b": 3}}'
    assert:
      - { type: contains, value: 'The sum of 2 and 3 is 5.' }
      - { type: calledTool, tool: get-sum }
  - id: bad-arguments
    input: '{"tool": "get-sum", "arguments": {"a": "two", "b": 3}}'
    assert:
      - { type: contains, value: 'anything' }
  - id: bad-arguments-expected
    input: '{"tool": "get-sum", "arguments": {"a": "two", "b": 3}, "expectError": true}'
    assert:
      - { type: contains, value: 'get-sum' }
  - id: structured
    input: '{"tool": "get-structured-content", "arguments": {"location": "Chicago"}, "checkOutputSchema": true}'
    assert:
      - { type: jsonPath, path: '$.humidity', equals: 82 }
`;

describe('an mcp target against server-everything', () => {
  it('passes on a tool result, records a call with invalid arguments as a tool error', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/mcp.eval.yaml': SUITE });
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir });
    expect(r.stderr).not.toMatch(STACK_FRAME);
    // One case fails (an unexpected tool error): the run says so.
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(json);

    const sum = caseOf(res, 'mcp/sum');
    expect(sum.verdict, JSON.stringify(sum)).toBe('passed');
    expect(sum.trials[0]!.reply).toBe('The sum of 2 and 3 is 5.');
    expect(sum.trials[0]?.trace?.steps?.[0]?.toolCalls?.[0]).toMatchObject({ name: 'get-sum' });

    const bad = caseOf(res, 'mcp/bad-arguments');
    expect(bad.verdict).toBe('failed');
    expect(bad.trials[0]!.error).toMatch(/^target tools: tool get-sum: MCP server "everything": tool get-sum returned an error: .*Invalid arguments for tool get-sum/);
    expect(bad.trials[0]?.trace?.steps?.[0]?.toolCalls?.[0]).toMatchObject({ name: 'get-sum', isError: true });

    const expected = caseOf(res, 'mcp/bad-arguments-expected');
    expect(expected.verdict, JSON.stringify(expected)).toBe('passed');
    expect(expected.trials[0]?.trace?.steps?.[0]?.toolCalls?.[0]?.isError).toBe(true);

    expect(caseOf(res, 'mcp/structured').verdict).toBe('passed');
    // Each trial's server wrote its stderr into the run folder, as the model agents' servers do.
    const runs = join(dir, '.out', 'runs');
    const [runId] = readdirSync(runs);
    expect(readFileSync(join(runs, runId!, 'mcp-tools.everything.stderr.log'), 'utf8').length).toBeGreaterThan(0);
  });

  it("list shows the server's tools; mcp-check reports each of them", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/mcp.eval.yaml': SUITE });
    const list = await runCliInProcess(['list'], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('target tools: MCP server "everything"');
    expect(list.stdout).toMatch(/^ {2}get-sum {2}Returns the sum of two numbers$/m);

    const check = await runCliInProcess(['mcp-check', 'everything', '--json'], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const report = JSON.parse(check.stdout) as { server: string; failed: number; tools: Array<{ name: string; checks: Array<{ check: string; status: string }> }> };
    expect(report.server).toBe('everything');
    const sum = report.tools.find((t) => t.name === 'get-sum');
    expect(sum?.checks.map((c) => [c.check, c.status])).toEqual([
      ['name', 'pass'],
      ['description', 'pass'],
      ['inputSchema', 'pass'],
      ['invalid arguments', 'pass'],
    ]);

    const text = await runCliInProcess(['mcp-check', '--', ...[everythingServer().command, ...everythingServer().args]], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ {2}ok {4}get-sum$/m);
    expect(text.stdout).toContain('every check passed');
  });

  it('a case whose input names no tool call is bad input: exit 2 at its line, before the server starts', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'evals/bad.eval.yaml': `suite: bad
target: tools
cases:
  - id: prose
    input: add 2 and 3
    assert: [{ type: contains, value: '5' }]
  - id: misspelt
    input: '{"tool": "get-sum", "args": {"a": 2}}'
    assert: [{ type: contains, value: '5' }]
`,
    });
    const r = await runCliInProcess(['run'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).toContain('evals/bad.eval.yaml:4: input: the input of an mcp case is JSON');
    expect(r.stderr).toMatch(/evals\/bad\.eval\.yaml:7: input: the input of an mcp case: Unrecognized key: "args"/);
  });

  it('mcp-check fails, exit 1, on each broken rule: a hang bounded by --timeout, a crash, arguments accepted, a bad name, no description, an invalid schema', async () => {
    const dir = writeProject({});
    const { command, args } = checkFixtureServer();
    const r = await runCliInProcess(['mcp-check', '--timeout', '1000', '--json', '--', command, ...args], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { failed: number; tools: Array<{ name: string; checks: Array<{ check: string; status: string; detail: string }> }> };
    const failures = report.tools.flatMap((t) => t.checks.filter((c) => c.status === 'fail').map((c) => `${t.name} ${c.check}: ${c.detail}`));
    expect(failures).toEqual([
      'lax invalid arguments: {} was accepted (no isError result, no error): the tool does not check its arguments',
      'stuck invalid arguments: {} → no answer: MCP server "server": tool stuck failed: no answer within 1000 ms (its timeoutMs)',
      expect.stringMatching(/^quits invalid arguments: \{\} → the server failed: MCP server "server": tool quits failed: the server process exited/),
      'bad name! name: "bad name!" is not 1-64 of A-Z a-z 0-9 _ - . / (the MCP specification\'s tool name rule)',
      'undescribed description: missing: a model chooses a tool by its description',
      expect.stringMatching(/^misschema inputSchema: not valid JSON Schema at properties\/a\/type/),
    ]);
    expect(report.failed).toBe(6);
    expect(report.tools.find((t) => t.name === 'sum')?.checks.every((c) => c.status === 'pass')).toBe(true);
  });

  it('mcp-check on bad input is exit 2, naming it', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG });
    const unknown = await runCliInProcess(['mcp-check', 'nowhere'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server "nowhere" in the config\'s mcpServers (it has: everything)');
    const none = await runCliInProcess(['mcp-check'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give a server');
  });
});
