/**
 * `agent-evals doctor` lists, checks and probes every model a run calls beyond targets and judges:
 * the user models of simulated users (their own `simulatedUser.model`, else the judge they fall back
 * to) and the embedding models of `similarTo` (the config's `embeddingModel` or an assertion's own),
 * each with who uses it; `--live` sends an embedding model one embeddings request. An agent judge's
 * key is checked where its calls read it: its own `options.env` when it gives one. The built CLI (its
 * `main`, in-process; needs dist/) against the fake OpenAI server.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { familyRow } from '../../src/providers/capability-lookup.js';
import { REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { writeProject } from '../support/temp-project.js';

const KEY = 'sk-doctor-users-secret-0123456789';
const USER = 'gpt-4o-mini';
const VERDICT: Scripted = { json: { answer: 'yes', reason: 'The output is the word OK.', evidence: ['OK'] }, usage: { input: 120, output: 20 } };
const script = (body: any): Scripted => (body.response_format !== undefined ? VERDICT : { text: 'OK', usage: { input: 12, output: 1 } });

const CONFIG = `export default {
  targets: { writer: { model: 'openai:gpt-4.1-mini', instructions: 'You book tables.' } },
  judge: 'openai:gpt-4.1',
  embeddingModel: 'openai:text-embedding-3-small',
};
`;
const EVAL = `suite: booking
target: writer
cases:
  - id: one-turn
    input: Book a table.
    assert:
      - { type: similarTo, value: Booked., threshold: 0.1 }
      - { type: similarTo, value: Booked., threshold: 0.1, model: openai:text-embedding-3-large }
  - id: own-user-model
    simulatedUser: { goal: Book a table for two., model: openai:${USER}, maxTurns: 2 }
    assert: [{ type: contains, value: Booked }]
  - id: judge-as-user
    simulatedUser: { goal: Book a table for one., maxTurns: 2 }
    assert: [{ type: contains, value: Booked }]
`;

const fakes: FakeProvider[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});
afterAll(removeTempDirs);

const doctor = (args: string[], env: Record<string, string | undefined>, cwd: string) =>
  runCliInProcess(['doctor', ...args], { cwd, env: { EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined, ...env } });
const block = (stdout: string, model: string) => stdout.split(`\n${model}\n`)[1]?.split('\n\n')[0] ?? '';
function liveLines(stdout: string): Map<string, string> {
  const section = stdout.split('Live check')[1] ?? '';
  return new Map([...section.matchAll(/^ {2}(\S+:\S+) +(OK|FAILED.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('doctor: simulated users and similarTo embedding models', () => {
  it('lists each with who uses it (file and field), its key and price; an embedding model is called with embeddings requests; a missing key counts', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/booking.eval.yaml': EVAL });
    const r = await doctor([], { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: undefined }, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^\S+:\S+$/.test(l));
    expect(headings).toEqual(['openai:gpt-4.1-mini', 'openai:gpt-4.1', 'openai:text-embedding-3-small', 'openai:text-embedding-3-large', `openai:${USER}`]);
    expect(block(r.stdout, `openai:${USER}`)).toContain('used by       the user model in evals/booking.eval.yaml (simulatedUser.model)\n');
    expect(block(r.stdout, 'openai:gpt-4.1')).toContain('used by       judge; the user model in evals/booking.eval.yaml (simulatedUser, no model: the config judge)');
    expect(block(r.stdout, 'openai:text-embedding-3-small')).toContain('used by       similarTo in evals/booking.eval.yaml (embeddingModel of the config)');
    expect(block(r.stdout, 'openai:text-embedding-3-large')).toContain('used by       similarTo in evals/booking.eval.yaml (model)');
    const small = block(r.stdout, 'openai:text-embedding-3-small');
    expect(small).toContain('key           OPENAI_API_KEY: set');
    expect(small).toContain('called with   embeddings requests (similarTo)');
    expect(small).toMatch(/price +\$\d[\d.]* input/);
    // Not a chat model: the chat rows' "not in the capability table" note is not for it.
    expect(small).not.toContain('not in the capability table');
    expect(r.stdout).toContain('5 models\n');

    const missing = await doctor(['--json'], { OPENAI_API_KEY: undefined }, dir);
    const report = JSON.parse(missing.stdout);
    expect(report.models.find((m: any) => m.model === 'openai:text-embedding-3-small')).toMatchObject({ embeddings: true, keyPresent: false, keyEnv: 'OPENAI_API_KEY' });
    expect(report.missingKeys).toEqual(['OPENAI_API_KEY']);
  });

  it("lists the models of redteam's attacker and generate's case generator, each with its config field; a bad one is exit 2 naming it", async () => {
    const config = CONFIG.replace(
      "embeddingModel: 'openai:text-embedding-3-small',",
      "embeddingModel: 'openai:text-embedding-3-small',\n  redteam: { attacker: 'openai:gpt-4o' },\n  generate: { model: 'anthropic:claude-sonnet-4-5' },",
    );
    const dir = writeProject({ 'evals.config.mjs': config, 'evals/booking.eval.yaml': EVAL });
    const r = await doctor([], { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: undefined }, dir);
    expect(block(r.stdout, 'openai:gpt-4o')).toContain('used by       redteam attacker (redteam.attacker)');
    const generator = block(r.stdout, 'anthropic:claude-sonnet-4-5');
    expect(generator).toContain('used by       case generator (generate.model)');
    expect(generator).toContain('key           ANTHROPIC_API_KEY: missing');
    const bad = writeProject({ 'evals.config.mjs': config.replace("'anthropic:claude-sonnet-4-5'", "'nope:model'"), 'evals/booking.eval.yaml': EVAL });
    const refused = await doctor([], { OPENAI_API_KEY: KEY }, bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('generate.model');
  });

  it("a user model's shutdown note, by the run's clock", async () => {
    const day = familyRow('openai', USER)!.shutdown!;
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/booking.eval.yaml': EVAL });
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.parse(day) + 86_400_000) });
    const r = await doctor([], { OPENAI_API_KEY: KEY }, dir);
    expect(block(r.stdout, `openai:${USER}`)).toMatch(new RegExp(`note {10}shut down on ${day} \\(.*\\): a run warns about it before its first call`));
  });

  it('--live sends each embedding model one embeddings request and each user model one short reply; a wrong key fails the embedding check, exit 1', async () => {
    const fake = await startFakeOpenAI({ script, apiKey: KEY });
    fakes.push(fake);
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/booking.eval.yaml': EVAL });
    const r = await doctor(['--live'], { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url }, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = liveLines(r.stdout);
    expect([...lines.values()]).toEqual(['OK', 'OK', 'OK', 'OK', 'OK']);
    const embeddings = fake.requests.filter((q) => q.path.endsWith('/embeddings'));
    expect(embeddings.map((q) => q.body.model).sort()).toEqual(['text-embedding-3-large', 'text-embedding-3-small']);
    expect(fake.requests.filter((q) => q.body.model === USER)).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(KEY);

    const wrong = await doctor(['--live'], { OPENAI_API_KEY: 'sk-wrong-key-000000000000', OPENAI_BASE_URL: fake.url }, dir);
    expect(wrong.code).toBe(1);
    expect(liveLines(wrong.stdout).get('openai:text-embedding-3-small')).toMatch(/^FAILED \(embedding\): authentication failed for openai: check OPENAI_API_KEY/);
  });
});

describe("doctor: an agent judge's key from its own options.env", () => {
  /** A project whose only model is an agent judge's, reading its key (and endpoint) from `env` in its options. */
  const project = (env: Record<string, string>) =>
    writeProject({
      'evals.config.mjs': `import { agentJudge } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href)};
export default {
  targets: { local: async () => ({ reply: 'offline' }) },
  judge: 'fake',
  judges: { auditor: agentJudge({ model: 'openai:gpt-4.1-nano', guards: { maxSteps: 3 }, options: { env: ${JSON.stringify(env)} } }) },
};
`,
    });

  it('set there and not in the process: shown set, no warning, and --live uses it', async () => {
    const fake = await startFakeOpenAI({ script, apiKey: KEY });
    fakes.push(fake);
    const dir = project({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url });
    const env = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined };
    const offline = await doctor([], env, dir);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    expect(offline.stdout).toContain("key           OPENAI_API_KEY (in the agent judge's options.env): set");
    expect(offline.stdout).toContain(`endpoint      ${fake.url.replace(/\/$/, '')} (from the environment)`);
    expect(offline.stderr).not.toContain('not set');
    const r = await doctor(['--live'], env, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect([...liveLines(r.stdout)]).toEqual([['openai:gpt-4.1-nano', 'OK']]);
    expect(fake.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${KEY}`]);
    expect(offline.stdout + offline.stderr + r.stdout + r.stderr).not.toContain(KEY);
  });

  it('set in the process but not there: missing, as the judge would find it', async () => {
    const dir = project({ SOMETHING_ELSE: 'x' });
    const r = await doctor([], { OPENAI_API_KEY: KEY }, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("key           OPENAI_API_KEY (in the agent judge's options.env): missing");
    expect(r.stderr).toContain("warning: OPENAI_API_KEY (in an agent judge's options.env) not set");
  });
});
