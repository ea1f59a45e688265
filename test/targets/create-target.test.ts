/** createTarget: config → adapter, with every check that can happen before the first trial. */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { UserError } from '../../src/core/errors.js';
import { ProviderConfigError } from '../../src/core/errors.js';
import { createTarget } from '../../src/targets/create-target.js';
import type { FakeProvider } from '../support/fake-server.js';
import { never, OPENAI_KEY, startFake, storeTools, trialInput } from './helpers.js';

const rootDir = mkdtempSync(join(tmpdir(), 'agent-evals-targets-'));
writeFileSync(join(rootDir, 'support.md'), 'You are the support agent of a small store.\n');
/** What a run gives the targets it builds (tests stub this process's environment). */
const settings = { rootDir, configFile: 'evals.config.ts', env: process.env, limiters: new ProviderLimiters() };

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  vi.unstubAllEnvs();
});

describe('createTarget', () => {
  it('builds a model agent with instructions from a file relative to the config', async () => {
    ({ fake } = await startFake('openai', [{ text: 'Hello from the store.' }]));
    vi.stubEnv('OPENAI_API_KEY', OPENAI_KEY);
    const target = await createTarget(
      'gpt',
      { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, instructionsFile: 'support.md', tools: storeTools, temperature: 0.2, maxTokens: 300 },
      settings,
    );
    const run = await target.run(trialInput('hi'), never);
    expect(target.model).toBe('openai:gpt-4.1-mini');
    expect(run).toMatchObject({ reply: 'Hello from the store.', instructions: 'You are the support agent of a small store.\n', stopReason: 'stop' });
    expect(fake.bodies[0]).toMatchObject({ temperature: 0.2, max_completion_tokens: 300, tool_choice: 'auto' });
  });

  it('stops before any trial when the API key is missing, naming the variable', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const err = await createTarget('claude', { model: 'anthropic:claude-sonnet-4-6' }, settings).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderConfigError);
    expect((err as Error).message).toBe('target "claude": missing API key for anthropic: set ANTHROPIC_API_KEY');
  });

  it('rejects bad model-agent config with the field named', async () => {
    vi.stubEnv('OPENAI_API_KEY', OPENAI_KEY);
    const attempt = (spec: object) =>
      createTarget('gpt', { model: 'openai:gpt-4.1-mini', ...spec }, settings).then(
        () => undefined,
        (e: unknown) => e as UserError,
      );
    const bad = async (spec: object) => (await attempt(spec)) ?? new UserError('no error');
    expect((await bad({ instructions: 'a', instructionsFile: 'support.md' })).message).toBe('evals.config.ts: targets.gpt: give "instructions" or "instructionsFile", not both');
    expect((await bad({ instructionsFile: 'nope.md' })).message).toMatch(/^evals\.config\.ts: targets\.gpt\.instructionsFile: cannot read instructions file nope\.md/);
    expect((await bad({ tools: [storeTools[0], { name: 'x', execute() {} }] })).message).toBe('evals.config.ts: targets.gpt.tools[1]: expected a tool made with tool() from agent-evals');
    expect((await bad({ tools: [storeTools[0], storeTools[0]] })).message).toBe('evals.config.ts: targets.gpt.tools[1]: two tools are named "orders_lookup"');
    expect(await attempt({ tools: [] })).toBeUndefined();
  });

  it("bounds each invocation by the target's own timeoutMs", async () => {
    // The command marks a file just before its late answer: if the run had waited for the answer,
    // the mark would exist when the run rejects.
    const mark = join(rootDir, 'slow-answered');
    const script = `setTimeout(() => { require('node:fs').writeFileSync(${JSON.stringify(mark)}, ''); console.log(JSON.stringify({ reply: "late" })); }, 2000)`;
    const target = await createTarget('slow', { command: ['node', '-e', script], timeoutMs: 200 }, settings);
    await expect(target.run(trialInput('x'), never)).rejects.toThrow("timed out after 200 ms (the target's timeoutMs)");
    expect(existsSync(mark)).toBe(false);
  });

  it("refuses a command target whose cwd is not a folder, naming the field (spawn would blame the program: 'spawn node ENOENT')", async () => {
    const refused = (cwd: string) =>
      createTarget('cmd', { command: ['node', 'agent.mjs'], cwd }, settings).then(
        () => undefined,
        (e: unknown) => e as UserError,
      );
    expect((await refused('agent'))?.message).toBe(`evals.config.ts: targets.cmd.cwd: no such folder: agent (resolved to ${join(rootDir, 'agent')})`);
    expect((await refused('support.md'))?.message).toBe(`evals.config.ts: targets.cmd.cwd: is not a folder: support.md (resolved to ${join(rootDir, 'support.md')})`);
    expect(await refused('.')).toBeUndefined();
  });

  it('says where a command target must print its AgentRun when stdout holds logs and then pretty-printed JSON', async () => {
    const script = 'console.log("loading model..."); console.log(JSON.stringify({ reply: "hi" }, null, 2))';
    const target = await createTarget('cmd', { command: ['node', '-e', script] }, settings);
    await expect(target.run(trialInput('x'), never)).rejects.toThrow(
      /^command target "cmd" printed no valid AgentRun JSON: not JSON: "loading model\.\.\.\\n\{.*"; expected the AgentRun JSON as the whole stdout or as its last line \(after any log lines, on one line\)$/s,
    );
  });

  it('builds an HTTP target from a url', async () => {
    const target = await createTarget('svc', { url: 'http://127.0.0.1:1/' }, settings);
    expect(typeof target.openSession).toBe('function');
  });
});
