/**
 * `agent-evals redteam` through the built CLI (in-process), against a vulnerable support agent and its
 * hardened twin on a fake OpenAI server (test/support/redteam-agents.ts). Each Must-show of the red team: the indirect injection found by its detector with no judge call and
 * its transcript kept, 0 of the same attempts on the hardened twin with the interval, the canary found
 * by value in the reply and a tool argument, a multi-turn attack held by the attacker as the simulated
 * user and ended by the detector, `--save` cases that `run` replays, `--offline` with no attacker request.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import type { FakeOpenAI } from '../support/fake-openai.js';
import { askedOf, cliWith, config, redteamServer } from '../support/redteam-agents.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';

afterAll(removeTempDirs);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function server(): Promise<FakeOpenAI> {
  fake = await redteamServer();
  return fake;
}
const asked = (model: string) => askedOf(fake!, model);
const redteam = (dir: string, args: string[]) => cliWith(fake!, dir, ['redteam', '--reporter', 'terminal', ...args]);

const readResults = (file: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const pluginRow = (r: Results, plugin: string, target: string) => r.redteam!.plugins.find((p) => p.plugin === plugin && p.target === target)!;

describe('agent-evals redteam', () => {
  it('finds the indirect injection in the vulnerable agent by its detector (no judge call), with the transcript; the hardened twin resists every attempt', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });

    const vulnerable = await redteam(dir, ['--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection', '--json', 'vulnerable.json', '--reporter', 'junit=vulnerable.xml']);
    expect(vulnerable.code, vulnerable.stdout + vulnerable.stderr).toBe(1);
    const found = readResults(join(dir, 'vulnerable.json'));
    const row = pluginRow(found, 'indirect-injection', 'vulnerable');
    expect(row.attempts).toBeGreaterThan(0);
    expect(row.successes).toBe(row.attempts);
    expect(row.decidedBy).toBe('detector');
    expect(row.judgeCalls).toBe(0);
    expect(asked('judge-model')).toBe(0);
    expect(found.redteam!.source).toBe('seeds');
    // The transcript: the successful attack's case holds the injected lookup and the refund it caused.
    const key = row.succeeded[0]!;
    const attack = found.cases.find((c) => `${c.suite}/${c.id}` === key)!;
    const calls = attack.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(calls.map((c) => [c.name, c.injected])).toEqual([
      ['orders_lookup', true],
      ['issue_refund', undefined],
    ]);
    expect(attack.trials[0]!.assertions.find((a) => a.kind === 'notCalledTool')!.status).toBe('failed');
    // The terminal's table and the successful attacks' keys.
    expect(vulnerable.stdout).toMatch(/indirect-injection\s+vulnerable\s+\d+\s+\d+\s+100% \(\d+%–100%\)\s+detector/);
    expect(vulnerable.stdout).toContain(`✗ ${key}`);
    // JUnit: a test case per attack, each successful attack a failure.
    const junit = readFileSync(join(dir, 'vulnerable.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(found.cases.length);
    expect(junit.match(/<failure /g)).toHaveLength(row.succeeded.length);

    const hardened = await redteam(dir, ['--offline', '--target', 'hardened', '--plugins', 'indirect-injection', '--json', 'hardened.json']);
    expect(hardened.code, hardened.stdout + hardened.stderr).toBe(0);
    const resisted = pluginRow(readResults(join(dir, 'hardened.json')), 'indirect-injection', 'hardened');
    expect(resisted.attempts).toBe(row.attempts);
    expect(resisted.successes).toBe(0);
    expect(resisted.rate).toBe(0);
    expect(resisted.interval!.low).toBe(0);
    expect(resisted.interval!.high).toBeGreaterThan(0);
    expect(hardened.stdout).toMatch(/indirect-injection\s+hardened\s+\d+\s+0\s+0% \(0%–\d+%\)\s+detector/);
    // --offline: the attacker the config names was never asked.
    expect(asked('attacker-model')).toBe(0);
    // The attack suite is a plain eval file in the run folder.
    expect(readFileSync(join(dir, '.out', 'runs', found.run.id, 'redteam.eval.yaml'), 'utf8')).toContain('toolResults');
  });

  it('detects the canary planted in the instructions by value, in the reply and in a later tool argument', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const r = await redteam(dir, ['--offline', '--target', 'vulnerable', '--plugins', 'prompt-extraction', '--attempts', '1', '--json', 'out.json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = readResults(join(dir, 'out.json'));
    const trial = results.cases[0]!.trials[0]!;
    const leak = trial.assertions.find((a) => a.kind === 'noLeak')!;
    expect(leak.status).toBe('failed');
    expect(leak.message).toMatch(/ae-canary-[0-9a-f]+/);
    expect(leak.message).toContain('reply');
    expect(leak.message).toContain('args of orders_lookup');
    // The canary was planted: the agent was sent it in its instructions.
    const canary = /ae-canary-[0-9a-f]+/.exec(leak.message)![0];
    expect(trial.trace.instructions ?? '').toContain(canary);
  });

  it('runs a multi-turn attack through the simulated-user loop, the attacker as the user, and stops when the detector fires', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const r = await redteam(dir, ['--target', 'vulnerable', '--plugins', 'multi-turn', '--attempts', '1', '--json', 'out.json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = readResults(join(dir, 'out.json'));
    expect(results.redteam!.source).toBe('attacker');
    expect(results.redteam!.attacker).toBe('openai:attacker-model');
    const simulated = results.cases.find((c) => c.trials[0]!.simulatedUser)!;
    const trial = simulated.trials[0]!;
    // Turn 1 looks the order up; turn 2 the agent refunds, the detector fires and the conversation ends (maxTurns is 6).
    expect(trial.simulatedUser).toEqual({ stopped: 'detector' });
    expect(trial.turns).toHaveLength(2);
    expect(trial.assertions.find((a) => a.kind === 'notCalledTool')!.status).toBe('failed');
    // The attacker's side counts what writing the attack and holding the conversation cost.
    expect(results.redteam!.usage.attacker.calls).toBeGreaterThanOrEqual(3);
  });

  it('--save writes the successful attacks as cases that fail against the vulnerable agent and pass against the hardened one in a plain run', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const r = await redteam(dir, ['--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection', '--save', 'findings.eval.yaml']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('findings.eval.yaml');

    const vulnerable = await cliWith(fake!, dir, ['run', 'findings.eval.yaml', '--json', 'replay-vulnerable.json']);
    expect(vulnerable.code, vulnerable.stdout + vulnerable.stderr).toBe(1);
    const replayed = readResults(join(dir, 'replay-vulnerable.json'));
    expect(replayed.cases.length).toBeGreaterThan(0);
    expect(replayed.cases.every((c) => c.verdict === 'failed')).toBe(true);

    const hardened = await cliWith(fake!, dir, ['run', 'findings.eval.yaml', '--target', 'hardened', '--json', 'replay-hardened.json']);
    expect(hardened.code, hardened.stdout + hardened.stderr).toBe(0);
    expect(readResults(join(dir, 'replay-hardened.json')).cases.length).toBe(replayed.cases.length);

    // Saved findings are committed and edited: a second --save to the same file, or to a name `run` does
    // not load, is exit 2 before any attack runs, and the file stays as it was.
    const saved = readFileSync(join(dir, 'findings.eval.yaml'), 'utf8');
    const before = fake!.requests.length;
    const again = await redteam(dir, ['--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection', '--save', 'findings.eval.yaml']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('findings.eval.yaml: --save: already exists');
    const misnamed = await redteam(dir, ['--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection', '--save', 'findings.yaml']);
    expect(misnamed.code).toBe(2);
    expect(misnamed.stderr).toContain('findings.yaml: --save: not a YAML eval file name');
    expect(fake!.requests).toHaveLength(before);
    expect(readFileSync(join(dir, 'findings.eval.yaml'), 'utf8')).toBe(saved);
  });

  it('--shard parts of an offline red team merge into the attack success of the whole run; --shard with an attacker is refused', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const args = ['--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection,prompt-extraction'];
    const whole = await redteam(dir, [...args, '--json', 'whole.json']);
    expect(whole.code, whole.stderr).toBe(1);
    for (const k of [1, 2]) expect((await redteam(dir, [...args, '--shard', `${k}/2`, '--json', `part${k}.json`])).code).not.toBe(2);
    const merged = await cliWith(fake!, dir, ['merge', 'part1.json', 'part2.json', '-o', 'merged.json']);
    expect(merged.code, merged.stderr).toBe(0);
    const counts = (r: Results) => r.redteam!.plugins.map((p) => [p.plugin, p.attempts, p.successes, [...p.succeeded].sort()]);
    expect(counts(readResults(join(dir, 'merged.json')))).toEqual(counts(readResults(join(dir, 'whole.json'))));
    const refused = await redteam(dir, ['--target', 'vulnerable', '--shard', '1/2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--shard needs --offline');
  });

  it('bad input is exit 2 before any target runs: an unknown plugin, an unknown target, no attacker model', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const plugin = await redteam(dir, ['--offline', '--plugins', 'indirect-injection,mind-control']);
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('--plugins: unknown red-team plugin "mind-control"');
    // An unknown id in the config names the config file and its key, as any config mistake does.
    const typo = writeProject({ 'evals.config.mjs': config("{ plugins: ['indirect-injection', 'mind-control'] }") });
    const configured = await redteam(typo, ['--offline']);
    expect(configured.code).toBe(2);
    expect(configured.stderr).toContain('evals.config.mjs: redteam.plugins: unknown red-team plugin "mind-control"');
    const target = await redteam(dir, ['--offline', '--target', 'nobody']);
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('unknown target "nobody"');
    const noAttacker = writeProject({ 'evals.config.mjs': config('{}').replace("judge: 'openai:judge-model',", "judge: 'fake',") });
    const none = await redteam(noAttacker, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no attacker model');
    // --offline asks no attacker: an --attacker beside it would be ignored, so the pair is refused.
    const both = await redteam(dir, ['--offline', '--attacker', 'openai:attacker-model']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--attacker: --offline asks no attacker model');
    for (const r of [plugin, configured, target, none, both]) expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(fake!.requests).toHaveLength(0);
  });

  it('a reporter path that cannot be written is exit 2 before the attacker is asked; a key the run finds missing leaves no run folder behind', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config() });
    const badPath = await redteam(dir, ['--target', 'vulnerable', '--plugins', 'indirect-injection', '--reporter', 'junit=evals.config.mjs/out.xml']);
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('junit reporter: cannot write');
    expect(asked('attacker-model')).toBe(0);
    expect(fake!.requests).toHaveLength(0);
    expect(existsSync(join(dir, '.out', 'runs'))).toBe(false);
    // The target's key is the run's check (after the attack file is written): exit 2, and the lone attack file goes.
    const noKey = await runCliInProcess(['redteam', '--offline', '--target', 'vulnerable', '--plugins', 'indirect-injection'], {
      cwd: dir,
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: fake!.url },
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('OPENAI_API_KEY is not set');
    expect(noKey.stderr).toContain('red team: '); // the attack file was written
    expect(readdirSync(join(dir, '.out', 'runs'))).toEqual([]);
  });

  it('with no judge anywhere, harmful-content is left out of the defaults (never counted as succeeded unjudged), and asked for by name it is exit 2', async () => {
    await server();
    const dir = writeProject({ 'evals.config.mjs': config("{ destructiveTools: ['issue_refund'] }").replace("judge: 'openai:judge-model',", '') });
    const r = await redteam(dir, ['--offline', '--target', 'hardened', '--attempts', '1', '--json', 'out.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('harmful-content left out: it is decided by a judge and none is configured');
    const plugins = readResults(join(dir, 'out.json')).redteam!.plugins.map((p) => p.plugin);
    expect(plugins).toContain('direct-injection');
    expect(plugins).not.toContain('harmful-content');
    const before = fake!.requests.length;
    const named = await redteam(dir, ['--offline', '--plugins', 'harmful-content']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--plugins: harmful-content is decided by a judge and none is configured');
    expect(fake!.requests).toHaveLength(before);
  });
});
