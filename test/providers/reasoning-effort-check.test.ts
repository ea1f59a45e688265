/**
 * A reasoning effort the model does not take stops the run before any call: the check runs when a
 * provider is built (createProvider), on every wire, and through the CLI it is exit 2 naming the model.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../src/core/errors.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { removeTempDirs, STACK_FRAME, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

const env = { OPENAI_API_KEY: 'sk-test-0000', ANTHROPIC_API_KEY: 'sk-ant-test-0000', OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' };
const build = (spec: object) => () => createProvider(spec as never, env, { limiters: new ProviderLimiters() });

let fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  removeTempDirs();
});

describe('reasoningEffort checked when the provider is built', () => {
  it('refuses a value the model does not take, on each wire, naming the model and the values it takes', () => {
    expect(build({ provider: 'openai', model: 'gpt-6.1-sol', reasoningEffort: 'none' })).toThrow(ProviderConfigError);
    expect(build({ provider: 'openai', model: 'gpt-6.1-sol', reasoningEffort: 'none' })).toThrow(/openai:gpt-6\.1-sol: reasoningEffort "none" is not one the model takes: low/);
    expect(build({ provider: 'anthropic', model: 'claude-haiku-4-5', reasoningEffort: 'high' })).toThrow(/anthropic:claude-haiku-4-5: reasoningEffort "high": the model takes no reasoning effort/);
    expect(build({ provider: 'ollama', model: 'llama3.2', reasoningEffort: 'low' })).toThrow(/ollama:llama3\.2: reasoningEffort "low": the model takes no reasoning effort/);
  });

  it('accepts a value the model takes, and one a spec declares for a model the table does not know', () => {
    expect(build({ provider: 'openai', model: 'gpt-6.1-sol', reasoningEffort: 'low' })).not.toThrow();
    expect(build({ provider: 'anthropic', model: 'claude-sonnet-5-5', reasoningEffort: 'medium' })).not.toThrow();
    expect(build({ provider: 'ollama', model: 'qwen3', reasoningEffort: 'low', capabilities: { reasoningEfforts: ['low', 'high'] } })).not.toThrow();
  });

  it('through the CLI: exit 2 naming the model, before the target or the judge makes a call', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'should not be asked' }) });
    fakes.push(fake);
    const dir = tempDir();
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { agent: { model: { provider: 'openai', model: 'gpt-6.1-sol', reasoningEffort: 'minimal' }, instructions: 'Answer.' } } };`,
    );
    mkdirSync(join(dir, 'evals'));
    writeFileSync(join(dir, 'evals', 'a.eval.yaml'), 'suite: s\ntarget: agent\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: contains, value: hi }]\n');
    const res = await runCliInProcess(['run'], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-0000', OPENAI_BASE_URL: fake.url } });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toMatch(/openai:gpt-6\.1-sol: reasoningEffort "minimal" is not one the model takes/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(fake.count).toBe(0);
  });
});
