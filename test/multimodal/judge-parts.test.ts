/**
 * The agent-loop judge (`agentJudge`) and a prompt-function judge (`promptJudge`) see a case's
 * images: the agent judge's first user message carries them in the provider's format (checked at
 * the fake OpenAI and Anthropic servers, which validate image parts), the prompt function receives
 * them typed in `call.attachments`, named in the prompt's input section.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { promptJudge, type PromptJudgeCall } from '../../src/judges/prompt-judge.js';
import { IMAGE_PNG, imageEvalFiles } from './image-fixtures.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', ANTHROPIC_API_KEY: 'sk-ant-test-dummy-000000' };
const DATA = IMAGE_PNG.toString('base64');
const SHA = createHash('sha256').update(IMAGE_PNG).digest('hex');
const submitted = { toolCalls: [{ name: 'submit_judgment', args: { score: 0.9, reason: 'reads the total', evidence: [] } }] };
/** One small image, so the judge's parts are easy to read. */
const files = () => {
  const f = imageEvalFiles('fn');
  f['evals/receipt.eval.yaml'] = String(f['evals/receipt.eval.yaml']).replace('      - { type: image, path: images/big.png }\n', '');
  return f;
};
const judging = { judges: (settings: any, deps: any) => createJudgeService({ settings: settings.judging, ...deps, env }) };
const target = { fn: () => 'The total is $12.50.' };

describe('an agent-loop judge sees the input image', () => {
  it('OpenAI: its first user message carries the image_url part after the prompt naming it', async () => {
    const fake = await startFakeOpenAI({ script: [submitted] });
    fakes.push(fake);
    const judge = agentJudge({ model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, options: { env } });
    const { results } = await runInProcess({ files: files(), config: { targets: target, judge }, flags: { cache: false }, env, ...judging });
    expect(results.cases[0]!.verdict).toBe('passed');
    const first = fake.bodies[0].messages.find((m: any) => m.role === 'user').content;
    expect(first[0].text).toContain(`[attachment 1: image receipt.png (image/png, ${IMAGE_PNG.length} bytes, sha256 ${SHA.slice(0, 12)})`);
    expect(first.slice(1)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${DATA}` } }]);
  });

  it('Anthropic: its first user message carries the base64 image block', async () => {
    const fake = await startFakeAnthropic({ script: [submitted] });
    fakes.push(fake);
    const judge = agentJudge({ model: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url }, options: { env } });
    const { results } = await runInProcess({ files: files(), config: { targets: target, judge }, flags: { cache: false }, env, ...judging });
    expect(results.cases[0]!.verdict).toBe('passed');
    const blocks = fake.bodies[0].messages[0].content as any[];
    expect(blocks.filter((b) => b.type === 'image')).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } }]);
  });
});

describe('a prompt-function judge sees the input image', () => {
  it('receives the image in call.attachments, named in the prompt', async () => {
    const calls: PromptJudgeCall[] = [];
    const judge = promptJudge((_prompt, call) => {
      calls.push(call);
      return '{"score": 0.9, "reason": "reads the total", "evidence": []}';
    });
    const { results } = await runInProcess({ files: files(), config: { targets: target, judge }, flags: { cache: false }, env, ...judging });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(calls).toHaveLength(1);
    const [image] = calls[0]!.attachments ?? [];
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png', name: 'receipt.png', data: DATA, sha256: SHA });
    expect(calls[0]!.user).toContain('[attachment 1: image receipt.png');
  });
});
