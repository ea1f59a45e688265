/** `judges: { name: … }` in the config, and `judge: name` in a YAML file. */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

function project(judgeName: string): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  targets: { agent: () => 'Order A1 shipped.' },
  judges: { auditor: { provider: 'openai', model: 'gpt-4.1-nano', baseURL: process.env.FAKE_URL } },
};\n`,
  );
  writeFileSync(
    join(dir, 'named.eval.yaml'),
    `suite: named\ntarget: agent\ncases:\n  - id: a\n    input: where is A1?\n    assert:\n      - type: closedQa\n        question: Does it give the status?\n        judge: ${judgeName}\n`,
  );
  return dir;
}

describe('named judges', () => {
  it('a YAML assertion names a judge of the config, which answers', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { answer: 'yes', reason: 'says shipped', evidence: [] } }) });
    const res = await runCliInProcess(['run'], { cwd: project('auditor'), env: { FAKE_URL: fake.url, OPENAI_API_KEY: 'test' } });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake.count).toBe(1);
    expect(fake.bodies[0].model).toBe('gpt-4.1-nano');
  });

  it('an unknown name stops the run before any call, naming the file and line', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { answer: 'yes', reason: 'x', evidence: [] } }) });
    const res = await runCliInProcess(['run'], { cwd: project('auditr'), env: { FAKE_URL: fake.url, OPENAI_API_KEY: 'test' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/named\.eval\.yaml:4: judge: unknown judge "auditr" \(configured: auditor\)/);
    expect(fake.count).toBe(0);
  });
});
