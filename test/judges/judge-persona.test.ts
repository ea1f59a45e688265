/**
 * A built-in judge's `system` (persona) through the real runner in-process: it replaces the first
 * line of the system message the fake server receives (the rules on untrusted data stay), it is
 * recorded with the judge in the results, and it is part of the judge cache key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentJudge } from '../../src/index.js';
import { AGENT_JUDGE_SYSTEM } from '../../src/judges/agent-judge-protocol.js';
import { JUDGE_SYSTEM } from '../../src/judges/prompt.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { UserConfig } from '../../src/config/define-config.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { loadConfig } from '../../src/config/load-config.js';
import { UserError } from '../../src/core/errors.js';
import { systemText } from './helpers.js';
import { openaiSpec, submit, TEST_ENV, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

const LEAD = 'You are a strict senior support lead who has read every refund policy.';
const COACH = 'You are a friendly support coach.';

const yaml = `suite: polite
target: agent
cases:
  - id: c
    input: Refund order A1049
    assert:
      - { type: judge, criteria: Asks for the email before refunding., judge: persona }
`;

function run(persona: NonNullable<UserConfig['judges']>[string], dir?: string) {
  return runInProcess({
    ...(dir ? { dir } : { files: { 'evals/polite.eval.yaml': yaml } }),
    config: { targets: { agent: () => 'Please confirm the email on order A1049 first.' }, judges: { persona } },
    flags: { cache: true },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { ...TEST_ENV } }),
  });
}

const firstLine = (text: string) => text.split('\n')[0];
const rest = (text: string) => text.split('\n').slice(1);

afterAll(removeTempDirs);

describe('a judge persona (`system`)', () => {
  it('an inference judge sends it as its system message, records it, and a changed persona misses the cache', async () => {
    const fake = await fakes.openai(() => ({ json: { score: 1, reason: 'asks first', evidence: [] } }));
    const first = await run({ ...openaiSpec(fake), system: LEAD });

    expect(first.exitCode).toBe(0);
    expect(fake.count).toBe(1);
    const system = systemText(fake.bodies[0]);
    expect(firstLine(system)).toBe(LEAD);
    expect(rest(system)).toEqual(rest(JUDGE_SYSTEM));
    expect(first.results.cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', system: LEAD });

    // The same persona again: answered from the disk cache, no request.
    const again = await run({ ...openaiSpec(fake), system: LEAD }, first.dir);
    expect(fake.count).toBe(1);
    expect(again.results.cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ cached: true, system: LEAD });

    // Another persona, or none: a new call each.
    const coach = await run({ ...openaiSpec(fake), system: COACH }, first.dir);
    expect(fake.count).toBe(2);
    expect(firstLine(systemText(fake.bodies[1]))).toBe(COACH);
    expect(coach.results.cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ system: COACH });
    expect(coach.results.cases[0]!.trials[0]!.assertions[0]!.judge!.cached).toBeUndefined();
    const plain = await run(openaiSpec(fake), first.dir);
    expect(fake.count).toBe(3);
    expect(systemText(fake.bodies[2])).toBe(JUDGE_SYSTEM);
    expect(plain.results.cases[0]!.trials[0]!.assertions[0]!.judge).not.toHaveProperty('system');
  });

  it('an agent judge sends it as its system message and records it', async () => {
    const fake = await fakes.openai([turn([submit(1, 'asks for the email')])]);
    const judge = agentJudge({ model: openaiSpec(fake), system: LEAD, guards: { maxSteps: 2 }, options: { env: TEST_ENV } });
    const { results, exitCode } = await run(judge);

    expect(exitCode).toBe(0);
    const system = systemText(fake.bodies[0]);
    expect(firstLine(system)).toBe(LEAD);
    expect(rest(system)).toEqual(rest(AGENT_JUDGE_SYSTEM));
    expect(results.cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', system: LEAD });
  });

  it('a persona that is not a non-empty string is bad input naming the file and field', async () => {
    const dir = tempDir('agent-evals-persona-');
    writeFileSync(join(dir, 'evals.config.mjs'), `export default { judges: { persona: { provider: 'openai', model: 'gpt-4.1-mini', system: '  ' } } };\n`);
    const loaded = loadConfig({ cwd: dir, env: {} });
    await expect(loaded).rejects.toBeInstanceOf(UserError);
    await expect(loaded).rejects.toThrow('evals.config.mjs: judges.persona: system: expected a non-empty string (the judge persona)');
  });
});
