/**
 * A Claude model-agent target on Amazon Bedrock, run by the built CLI (in-process) through the
 * official Bedrock SDK against the fake Bedrock endpoint (fake-bedrock.ts), which checks every
 * request's SigV4 signature: the tool loop completes with each request signed, and a wrong secret
 * key fails the trial with the endpoint's 403, the secret in no output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

let fake: FakeBedrock | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const CREDS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 'FwoGZXIvYXdzEXAMPLEsessionTOKEN0123456789' };

const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, path)).href);
const CONFIG = `import { tool } from ${dist('dist/index.js')};
import { z } from ${dist('node_modules/zod/index.js')};

const lookup = tool({
  name: 'orders_lookup',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ id: orderId, status: 'shipped' }),
});

export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: { support: { model: { provider: 'bedrock', model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', maxRetries: 0 }, instructions: 'You answer order questions.', tools: [lookup] } },
};
`;

const EVAL = `suite: shop
target: support
cases:
  - id: where
    input: Where is order A1050?
    assert:
      - type: calledTool
        tool: orders_lookup
        args: { orderId: A1050 }
      - type: contains
        value: shipped
`;

async function run(secret: string) {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/shop.eval.yaml': EVAL });
  const r = await runCliInProcess(['run', '--json', 'results.json'], {
    cwd: dir,
    env: {
      AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: secret,
      AWS_SESSION_TOKEN: CREDS.sessionToken,
      AWS_REGION: 'us-west-2',
      ANTHROPIC_BEDROCK_BASE_URL: fake!.origin,
    },
  });
  return { ...r, dir };
}

describe('a Claude target on Amazon Bedrock', () => {
  it('completes its tool loop through the Bedrock SDK, every request SigV4-signed', async () => {
    fake = await startFakeBedrock({
      credentials: CREDS,
      region: 'us-west-2',
      script: (body: { messages: Array<{ role: string; content: unknown }> }) =>
        body.messages.length === 1
          ? { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], usage: { input: 40, output: 9 } }
          : { text: 'Order A1050 has shipped.', usage: { input: 70, output: 7 } },
    });
    const r = await run(CREDS.secretAccessKey);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.count).toBe(2);
    expect(fake.verified).toBe(2);
    // The run's own scope header is neither signed nor sent (it would break the signature on the wire).
    for (const req of fake.requests) expect(req.headers['authorization']).not.toContain('x-agent-evals-scope');
    // The second request carries the tool result, as Bedrock's Messages body.
    expect(fake.bodies[1].messages.at(-1).content[0]).toMatchObject({ type: 'tool_result' });
    const results = readResults(join(r.dir, 'results.json'));
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(results.cases[0]!.trials[0]!.usage?.target).toMatchObject({ calls: 2, inputTokens: 110, outputTokens: 16 });
  });

  it('a wrong secret key fails the trial with the 403 of the signature check; no secret in any output', async () => {
    fake = await startFakeBedrock({ credentials: CREDS, region: 'us-west-2', script: [] });
    const wrong = 'wrongSecretKeyWrongSecretKeyWrongSecret00';
    const r = await run(wrong);
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    expect(fake.verified).toBe(0);
    const text = readFileSync(join(r.dir, 'results.json'), 'utf8');
    const results = readResults(join(r.dir, 'results.json'));
    expect(results.cases[0]!.trials[0]!.error).toMatch(/permission denied by bedrock \(403\).*The request signature we calculated does not match/);
    for (const secret of [wrong, CREDS.sessionToken]) expect(text + r.stdout + r.stderr).not.toContain(secret);
  });
});
