/**
 * `doctor` tries what the run will send, and a setting the capability table says the API refuses
 * stops `run` and offline `doctor` before any request (built CLI, in-process, against the fake
 * OpenAI server that refuses what the real API refuses): gpt-6.2-sol with a tool on Chat Completions
 * (forced `api: 'chat'`) fails `doctor --live` with the API's own message, and `run` and `doctor`
 * refuse it with exit 2, no request sent; a judge's structured answer is what its check sends; the
 * reasoning effort doctor names is the one the tool request carries.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import type { Scripted } from '../support/fake-server.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const KEY = 'sk-doctor-tools-secret-0123456789';
const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, path)).href);

/** A project whose one target is a model-agent target on `model` (a model spec's source) with one tool, judged by `judge`. */
function project(model: string, judge = "'fake'"): string {
  return writeProject({
    'evals.config.mjs': `import { tool } from ${dist('dist/index.js')};
import { z } from ${dist('node_modules/zod/index.js')};
const lookup = tool({ name: 'orders_lookup', description: 'Look an order up.', parameters: z.object({ orderId: z.string() }), execute: () => ({ status: 'shipped' }) });
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  judge: ${judge},
  targets: { agent: { model: ${model}, instructions: 'You look orders up.', tools: [lookup] } },
};
`,
    'evals/shop.eval.yaml': 'suite: shop\ntarget: agent\ncases:\n  - id: status\n    input: Where is order A1?\n    assert:\n      - type: contains\n        value: shipped\n',
  });
}

const SOL_ON_CHAT = "{ provider: 'openai', model: 'gpt-6.2-sol', api: 'chat' }";

/** The fake OpenAI server: every request answered OK, unless `refuse` answers it first. */
async function startFake(refuse: (body: any) => Scripted | undefined = () => undefined): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI({
    apiKey: KEY,
    script: (body: any) => refuse(body) ?? (body.response_format ? { json: { answer: 'yes', reason: 'The output is OK.', evidence: ['OK'] } } : { text: 'OK' }),
  });
  return fake;
}

const cli = (args: string[], dir: string, f: FakeOpenAI) => runCliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: f.url } });

/** The live-check line of `model`: `OK` or `FAILED ...`. */
function liveLine(stdout: string, model: string): string | undefined {
  const section = stdout.split('Live check')[1] ?? '';
  return [...section.matchAll(/^ {2}(\S+:\S+) +(OK|FAILED.*)$/gm)].find((m) => m[1] === model)?.[2];
}

const REFUSED = /target "agent": model openai:gpt-6\.2-sol on OpenAI Chat Completions: function tools are taken only on the Responses API: set `api: 'responses'`/;

describe('gpt-6.2-sol with a tool on Chat Completions (forced api: chat)', () => {
  it("doctor --live sends the target's tool request and reports it failing with the API's own message, exit 1", async () => {
    const f = await startFake();
    const r = await cli(['doctor', '--live'], project(SOL_ON_CHAT), f);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(liveLine(r.stdout, 'openai:gpt-6.2-sol')).toBe(
      'FAILED (tool request): openai rejected the request: 400 Function tools are not supported for gpt-6.2-sol in /v1/chat/completions. To use function tools, use /v1/responses.',
    );
    // What the run sends: the target's tool, offered.
    expect(f.bodies).toHaveLength(1);
    expect(f.bodies[0]).toMatchObject({ model: 'gpt-6.2-sol', tool_choice: 'auto', tools: [{ type: 'function', function: { name: 'orders_lookup' } }] });
    // The block says the run would refuse it before its first call.
    expect(r.stdout).toMatch(/refused {7}model openai:gpt-6\.2-sol on OpenAI Chat Completions: function tools are taken only on the Responses API/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('run refuses it at plan time: exit 2, naming model, wire and setting, no request sent', async () => {
    const f = await startFake();
    const r = await cli(['run'], project(SOL_ON_CHAT), f);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(REFUSED);
    expect(r.stderr).toContain('evals.config.mjs');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(f.count).toBe(0);
  });

  it('run --estimate refuses it too: exit 2, no request sent', async () => {
    const f = await startFake();
    const r = await cli(['run', '--estimate'], project(SOL_ON_CHAT), f);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(REFUSED);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(f.count).toBe(0);
  });

  it('doctor without --live refuses it too: exit 2, no request sent', async () => {
    const f = await startFake();
    const r = await cli(['doctor'], project(SOL_ON_CHAT), f);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(REFUSED);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(f.count).toBe(0);
  });

  it('a request the API takes though the table refuses it is OK live, and still fails the check: the run would stop, exit 1', async () => {
    const f = await startFake();
    const r = await cli(['doctor', '--live'], project("{ provider: 'openai', model: 'gpt-4.1-mini', api: 'chat', capabilities: { chatTools: 'none' } }"), f);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(liveLine(r.stdout, 'openai:gpt-4.1-mini')).toBe('OK');
    expect(r.stdout).toContain('1 of 1 model refused before the first call by a run (see `refused` above)');
    expect(f.bodies[0]).toMatchObject({ tools: [{ function: { name: 'orders_lookup' } }] });
  });

  it('with api: responses the Chat Completions check does not refuse it', async () => {
    const f = await startFake();
    const r = await cli(['doctor'], project("{ provider: 'openai', model: 'gpt-6.2-sol', api: 'responses' }"), f);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('refused');
  });
});

describe("a judge's check is its structured answer", () => {
  it('a judge model that refuses the structured-output mode fails doctor --live though it answers a plain message', async () => {
    const message = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.";
    const f = await startFake((body) => (body.model === 'gpt-3.5-turbo' && body.response_format ? { status: 400, message } : undefined));
    const r = await cli(['doctor', '--live'], project("'openai:gpt-4.1-mini'", "'openai:gpt-3.5-turbo'"), f);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(liveLine(r.stdout, 'openai:gpt-4.1-mini')).toBe('OK');
    expect(liveLine(r.stdout, 'openai:gpt-3.5-turbo')).toBe(`FAILED (structured answer): openai rejected the request: 400 ${message}`);
    // Its plain message was accepted: only the structured request was refused.
    const judgeBodies = f.bodies.filter((b) => b.model === 'gpt-3.5-turbo');
    expect(judgeBodies.map((b) => b.response_format?.type ?? 'plain')).toEqual(['plain', 'json_schema']);
  });
});

describe('the reasoning effort doctor names is the one the tool request carries', () => {
  /** doctor --live on `model`: the effort its block names, and the reasoning_effort its tool request carried. */
  async function efforts(model: string): Promise<{ named: string; sent: unknown; live: string | undefined }> {
    const f = await startFake();
    const r = await cli(['doctor', '--live'], project(model), f);
    const named = /reasoning effort ([^·\n]+?)\s*(?:·|\n)/.exec(r.stdout)?.[1];
    const tool = f.bodies.find((b) => b.tools !== undefined);
    return { named: named!, sent: tool?.reasoning_effort, live: liveLine(r.stdout, 'openai:gpt-6-luna') };
  }

  it('gpt-6-luna forced onto Chat Completions with tools and no effort: no silent none; the request carries no effort and doctor says the provider default', async () => {
    // Without `api: 'chat'` it goes to the Responses API (api-choice.ts).
    const { named, sent, live } = await efforts("{ provider: 'openai', model: 'gpt-6-luna', api: 'chat' }");
    expect(sent).toBeUndefined();
    expect(named).toBe('the provider default');
    // The API refuses tools at its default effort on Chat Completions, and says so.
    expect(live).toMatch(/^FAILED \(tool request\): .*Function tools with reasoning_effort are not supported for gpt-6-luna/);
  });

  it('gpt-6-luna that does not reason unless asked: its tool requests go out at none, and doctor says none', async () => {
    const { named, sent, live } = await efforts("{ provider: 'openai', model: 'gpt-6-luna', capabilities: { thinking: 'optional' } }");
    expect(sent).toBe('none');
    expect(named).toBe('none');
    expect(live).toBe('OK');
  });

  it('gpt-6-luna at reasoningEffort none: doctor says none, the tool request carries none, OK', async () => {
    const { named, sent, live } = await efforts("{ provider: 'openai', model: 'gpt-6-luna', reasoningEffort: 'none' }");
    expect([named, sent, live]).toEqual(['none', 'none', 'OK']);
  });
});

describe("doctor's key line for a provider signed by a credential chain", () => {
  it('a bedrock target without AWS_BEARER_TOKEN_BEDROCK is signed with AWS credentials, not called a local server', async () => {
    const f = await startFake();
    const r = await cli(['doctor'], project("'bedrock:anthropic.claude-haiku-4-5-20251001-v1:0'", "'openai:gpt-4.1-mini'"), f);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/key +AWS_BEARER_TOKEN_BEDROCK: not set \(the calls are signed with AWS credentials \(AWS_ACCESS_KEY_ID/);
    expect(r.stdout).not.toContain('a local server');
  });
});
