/**
 * `agent-evals doctor` through the built CLI (its `main`, in-process; needs dist/): offline it lists
 * every model a run would call and exits 0 even with keys missing; `--live` sends one short request
 * per model (and a judge's own structured request per judge model) to the fake servers, printing OK
 * per model, or the provider's message with the fix and exit 1. No key value ever reaches the output.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { familyRow } from '../../src/providers/capability-lookup.js';
import { REPO_ROOT, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { writeProject } from '../support/temp-project.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'doctor');
const OPENAI_KEY = 'sk-doctor-openai-secret-0123456789';
const ANTHROPIC_KEY = 'sk-ant-doctor-secret-0123456789';
/** The fixture's four distinct models. */
const MODELS = ['openai:gpt-4.1-mini', 'anthropic:claude-haiku-4-5', 'openai:gpt-4.1', 'openai:gpt-4.1-nano'];

/** A closed-QA judgment as the judges' contract asks for it. */
const VERDICT: Scripted = { json: { answer: 'yes', reason: 'The output is the word OK.', evidence: ['OK'] }, usage: { input: 120, output: 20 } };

/** Structured requests get the verdict, the rest a one-word reply; `refuse` answers its models' requests with an error first. */
function script(refuse: Record<string, Scripted> = {}) {
  return (body: any): Scripted => {
    const refused = refuse[body.model];
    if (refused) return refused;
    const structured = body.response_format !== undefined || body.tool_choice !== undefined || body.output_config?.format !== undefined;
    return structured ? VERDICT : { text: 'OK', usage: { input: 12, output: 1 } };
  };
}

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function startFakes(refuse: Record<string, Scripted> = {}, opts: { openaiKey?: string } = {}) {
  const openai = await startFakeOpenAI({ script: script(refuse), ...(opts.openaiKey ? { apiKey: opts.openaiKey } : {}) });
  const anthropic = await startFakeAnthropic({ script: script(refuse) });
  fakes.push(openai, anthropic);
  return { openai, anthropic, env: { OPENAI_BASE_URL: openai.url, ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY } };
}

const doctor = (args: string[], env: Record<string, string | undefined>, cwd = FIXTURE) => runCliInProcess(['doctor', ...args], { cwd, env });

/** The live-check lines: `  <model>  OK` or `  <model>  FAILED ...`. */
function liveLines(stdout: string): Map<string, string> {
  const section = stdout.split('Live check')[1] ?? '';
  return new Map([...section.matchAll(/^ {2}(\S+:\S+) +(OK|FAILED.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

function expectNoSecret(out: string): void {
  expect(out).not.toContain(OPENAI_KEY);
  expect(out).not.toContain(ANTHROPIC_KEY);
}

describe('agent-evals doctor, offline', () => {
  it('exits 0 on the example config, naming what calls models only as it runs', async () => {
    const r = await doctor([], { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined }, REPO_ROOT);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Models a run of evals.config.ts would call');
    expect(r.stdout).toContain('target "support-agent": a function target: the models it calls are known only as it runs');
    expect(r.stdout).toContain('target "order-status-cli": a command target');
    expect(r.stdout).toContain('judge: the fake judge (offline, no model)');
  });

  it('lists each distinct model once with who calls it, its endpoint, key, capabilities and price; a missing key is shown and warned about, exit 0', async () => {
    const r = await doctor([], { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: undefined, OPENAI_BASE_URL: undefined, ANTHROPIC_BASE_URL: undefined });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^\S+:\S+$/.test(l));
    expect(headings).toEqual(MODELS);
    const block = (model: string) => r.stdout.split(`\n${model}\n`)[1]!.split('\n\n')[0]!;
    // Targets, the default judge, named judges (an agent judge's model too), a judge in an eval file, matrix variants.
    expect(block('openai:gpt-4.1-mini')).toContain('used by       target "writer"; matrix variant target=writer (suite compare); judge in evals/compare.eval.yaml');
    expect(block('anthropic:claude-haiku-4-5')).toContain('target "claude"; judge "strict"; matrix variant target=claude (suite compare)');
    expect(block('openai:gpt-4.1')).toContain('used by       judge\n');
    expect(block('openai:gpt-4.1-nano')).toContain('judge "auditor" (agent judge)');
    expect(block('openai:gpt-4.1')).toContain('endpoint      https://api.openai.com/v1 (openai default)');
    expect(block('openai:gpt-4.1')).toContain('key           OPENAI_API_KEY: set');
    expect(block('anthropic:claude-haiku-4-5')).toContain('key           ANTHROPIC_API_KEY: missing');
    // A judge model is called with its structured-output mode; a target-only model shows none.
    expect(block('anthropic:claude-haiku-4-5')).toContain('structured output forced_tool');
    expect(block('openai:gpt-4.1')).toMatch(/called with +sampling any · structured output json_schema · thinking off · token limit max_completion_tokens/);
    expect(block('openai:gpt-4.1-nano')).not.toContain('structured output');
    expect(block('openai:gpt-4.1')).toMatch(/price +\$\d[\d.]* input, .*output per 1M tokens/);
    expect(r.stdout).toContain('target "local": a function target: the models it calls are known only as it runs');
    expect(r.stdout).toContain('4 models; 1 key missing: ANTHROPIC_API_KEY');
    expect(r.stderr).toContain('warning: ANTHROPIC_API_KEY not set');
    expectNoSecret(r.stdout + r.stderr);
  });

  it("notes a model whose shutdown date has come as shut down, by the run's rule and clock (set before and after the date)", async () => {
    const day = familyRow('openai', 'gpt-4.1-nano')!.shutdown!;
    const at = async (offsetDays: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.parse(day) + offsetDays * 86_400_000) });
      try {
        const r = await doctor([], { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY });
        expect(r.code, r.stdout + r.stderr).toBe(0);
        return r.stdout.split('\nopenai:gpt-4.1-nano\n')[1]!.split('\n\n')[0]!;
      } finally {
        vi.useRealTimers();
      }
    };
    const before = await at(-1);
    expect(before).toContain(`note          gpt-4.1-nano is announced to shut down on ${day}`);
    expect(before).not.toContain('a run warns');
    const after = await at(0);
    expect(after).toMatch(new RegExp(`note {10}shut down on ${day} \\(.*\\): a run warns about it before its first call`));
  });

  it('says "unknown price" for a model without one, and --json gives the same report', async () => {
    const dir = writeProject({
      'evals.config.mjs': "export default { targets: { mine: { model: { provider: 'openai', model: 'my-finetune', baseURL: 'https://user:pw@gateway.example/v1?token=t0k' } } } };",
    });
    const r = await doctor([], { OPENAI_API_KEY: undefined }, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('price         unknown price');
    // A URL's user info and query are never shown.
    expect(r.stdout).toContain('endpoint      https://gateway.example/v1 (from the config)');
    expect(r.stdout).not.toMatch(/pw@|t0k/);
    const json = await doctor(['--json'], { OPENAI_API_KEY: undefined }, dir);
    const report = JSON.parse(json.stdout);
    expect(report.models).toHaveLength(1);
    expect(report.models[0]).toMatchObject({ model: 'openai:my-finetune', keyEnv: 'OPENAI_API_KEY', keyPresent: false, usedBy: ['target "mine"'] });
    expect(report.models[0].price).toBeUndefined();
    expect(report.missingKeys).toEqual(['OPENAI_API_KEY']);
  });

  it('a bad config is the usual clear error, exit 2', async () => {
    const dir = writeProject({ 'evals.config.mjs': 'export default { targets: { t: { model: 42 } }, concurency: 2 };' });
    const r = await doctor([], {}, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agent-evals: evals\.config\.mjs: /);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stdout).toBe('');
  });
});

describe('agent-evals doctor --live', () => {
  it('prints one OK per model against the fakes: a short reply from each, and a structured answer from each judge model', async () => {
    const { openai, anthropic, env } = await startFakes();
    const r = await doctor(['--live'], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect([...liveLines(r.stdout)]).toEqual(MODELS.map((m) => [m, 'OK']));
    expectNoSecret(r.stdout + r.stderr);

    const requests = [...openai.bodies, ...anthropic.bodies];
    // A short request offers tools (tool_choice auto) where a caller does; a judge forces its answer.
    const replies = requests.filter((b) => b.response_format === undefined && (b.tool_choice === undefined || b.tool_choice === 'auto') && b.output_config?.format === undefined);
    const structured = requests.filter((b) => !replies.includes(b));
    // One short request per model, its output tokens kept small; the agent judge's model is offered its tools, as its calls are.
    expect(replies.map((b) => b.model).sort()).toEqual(['claude-haiku-4-5', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano']);
    for (const b of replies) expect(b.max_completion_tokens ?? b.max_tokens).toBeLessThanOrEqual(16);
    expect(replies.filter((b) => b.tools !== undefined).map((b) => [b.model, b.tools.map((t: any) => t.function.name)])).toEqual([['gpt-4.1-nano', ['submit_judgment']]]);
    // One judge request per inference-judge model (the agent judge's model gets none), as the judges build it.
    expect(structured.map((b) => b.model).sort()).toEqual(['claude-haiku-4-5', 'gpt-4.1', 'gpt-4.1-mini']);
    const strict = anthropic.bodies.find((b) => b.tool_choice !== undefined || b.output_config !== undefined);
    expect(JSON.stringify(strict.system)).toContain('You are a strict grader.');
  });

  it('names the model a fake refuses with 400 and the provider message, with the fix, exit 1; the others stay OK', async () => {
    const message = "Unsupported parameter: 'max_completion_tokens' is not supported with this model.";
    const { env } = await startFakes({ 'gpt-4.1': { status: 400, message } });
    const r = await doctor(['--live'], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const lines = liveLines(r.stdout);
    expect(lines.get('openai:gpt-4.1')).toMatch(/^FAILED \(reply\): .*Unsupported parameter: 'max_completion_tokens' is not supported with this model\./);
    expect(r.stdout).toMatch(/fix: unsupported parameter or value/);
    expect([...lines].filter(([, v]) => v === 'OK').map(([m]) => m)).toEqual(MODELS.filter((m) => m !== 'openai:gpt-4.1'));
    expect(r.stdout).toContain('1 of 4 models failed the live check');
  });

  it('a wrong key is named by its variable, never printed; a missing key fails the check', async () => {
    const { env } = await startFakes({}, { openaiKey: 'sk-the-right-key-000000000' });
    const r = await doctor(['--live'], { ...env, ANTHROPIC_API_KEY: undefined });
    expect(r.code).toBe(1);
    const lines = liveLines(r.stdout);
    expect(lines.get('openai:gpt-4.1')).toMatch(/FAILED \(reply\): authentication failed for openai: check OPENAI_API_KEY/);
    expect(r.stdout).toContain('fix: wrong or missing key in OPENAI_API_KEY');
    expect(lines.get('anthropic:claude-haiku-4-5')).toMatch(/FAILED \(reply\): missing API key for anthropic: set ANTHROPIC_API_KEY/);
    expectNoSecret(r.stdout + r.stderr);
  });

  it('an unknown model (404) is named as such', async () => {
    const { env } = await startFakes({ 'gpt-4.1-nano': { status: 404 } });
    const r = await doctor(['--live'], env);
    expect(r.code).toBe(1);
    expect(liveLines(r.stdout).get('openai:gpt-4.1-nano')).toMatch(/^FAILED \(tool request\): .*404/);
    expect(r.stdout).toContain('fix: unknown model: check the model id');
  });
});

describe("agent-evals doctor: an agent judge's own endpoint and key variable", () => {
  const KEY = 'sk-auditor-secret-0123456789';
  /** A project whose only model is an agent judge's, at `url` with its key in AUDITOR_KEY. */
  const project = (url: string) =>
    writeProject({
      'evals.config.mjs': `import { agentJudge } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href)};
export default {
  targets: { local: async () => ({ reply: 'offline' }) },
  judge: 'fake',
  judges: { auditor: agentJudge({ model: { provider: 'openai', model: 'gpt-4.1-nano', baseURL: ${JSON.stringify(url)}, apiKeyEnv: 'AUDITOR_KEY' }, guards: { maxSteps: 3 } }) },
};
`,
    });

  it('lists and --live checks the model at the configured baseURL with the configured key variable', async () => {
    const fake = await startFakeOpenAI({ script: script(), apiKey: KEY });
    fakes.push(fake);
    const dir = project(fake.url);
    // No OPENAI_* variable: the provider's default endpoint and key would fail.
    const env = { AUDITOR_KEY: KEY, OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined };
    const offline = await doctor([], env, dir);
    expect(offline.stdout).toContain(`endpoint      ${fake.url.replace(/\/$/, '')} (from the config)`);
    expect(offline.stdout).toContain('key           AUDITOR_KEY: set');
    const r = await doctor(['--live'], env, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect([...liveLines(r.stdout)]).toEqual([['openai:gpt-4.1-nano', 'OK']]);
    expect(fake.bodies.map((b) => b.model)).toEqual(['gpt-4.1-nano']);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('a missing key variable is named: the one the judge configured', async () => {
    const fake = await startFakeOpenAI({ script: script(), apiKey: KEY });
    fakes.push(fake);
    const r = await doctor(['--live'], { AUDITOR_KEY: undefined, OPENAI_API_KEY: 'sk-provider-key-0123456789', OPENAI_BASE_URL: undefined }, project(fake.url));
    expect(r.code).toBe(1);
    expect(liveLines(r.stdout).get('openai:gpt-4.1-nano')).toMatch(/^FAILED \(tool request\): missing API key for openai: set AUDITOR_KEY/);
    expect(r.stdout).toContain('1 model; 1 key missing: AUDITOR_KEY');
    expect(fake.bodies).toEqual([]);
  });
});
