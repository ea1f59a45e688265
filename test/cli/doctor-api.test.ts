/** `doctor` names the API each OpenAI model spec goes to, and the token field sent there. */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterEach(() => removeTempDirs());

function project(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default {\n  evals: ['*.eval.yaml'],\n  judge: 'openai:gpt-6.1-sol',\n  targets: { m: { model: 'openai:gpt-5.4-mini', instructions: 'Be brief.' } },\n};\n`,
  );
  return dir;
}

/** One model's block of the terminal report. */
function block(text: string, model: string): string {
  return text.split('\n\n').find((b) => b.startsWith(`${model}\n`)) ?? '';
}

describe('doctor: the API a model spec goes to', () => {
  it('a model on the Responses API says so, with max_output_tokens; one on Chat Completions keeps max_completion_tokens', async () => {
    const res = await runCliInProcess(['doctor'], { cwd: project(), env: { OPENAI_API_KEY: 'sk-test' } });
    expect(res.code, res.stderr).toBe(0);
    const responses = block(res.stdout, 'openai:gpt-6.1-sol');
    expect(responses).toMatch(/^ {2}api {11}OpenAI Responses$/m);
    expect(responses).toContain('token limit max_output_tokens');
    const chat = block(res.stdout, 'openai:gpt-5.4-mini');
    expect(chat).toMatch(/^ {2}api {11}OpenAI Chat Completions$/m);
    expect(chat).toContain('token limit max_completion_tokens');
  });

  it('--json gives the api and token field of each model', async () => {
    const res = await runCliInProcess(['doctor', '--json'], { cwd: project(), env: { OPENAI_API_KEY: 'sk-test' } });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as { models: Array<{ model: string; api?: string; tokenField?: string }> };
    const by = Object.fromEntries(report.models.map((m) => [m.model, [m.api, m.tokenField]]));
    expect(by['openai:gpt-6.1-sol']).toEqual(['OpenAI Responses', 'max_output_tokens']);
    expect(by['openai:gpt-5.4-mini']).toEqual(['OpenAI Chat Completions', 'max_completion_tokens']);
  });
});
