/**
 * The run's plan-time check (runner/wire-refusals.ts): each target, judge and agent judge of the
 * selected cases is asked of its wire's `refusal`, with how the run uses it (tools, a structured
 * answer); a refusal is a UserError naming who, the model, the wire and the setting. Any wire's
 * check is asked (a registered toy wire's too), and a re-judge checks no target.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { agentJudge } from '../../src/judges/agent-judge.js';
import type { JudgeSettings } from '../../src/judges/settings.js';
import { registerProvider } from '../../src/providers/registry.js';
import type { SpecUse, WireDescriptor } from '../../src/providers/wire-descriptor.js';
import { registerWire } from '../../src/providers/wires.js';
import { OPENAI_WIRE } from '../../src/providers/wires/openai/index.js';
import { checkWireRefusals } from '../../src/runner/wire-refusals.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import type { TargetConfig } from '../../src/targets/config-schema.js';
import { tool } from '../../src/targets/tool.js';
import { z } from 'zod';
import { makePlannedCase } from '../support/planned-case.js';

const undo: Array<() => void> = [];
afterEach(() => {
  while (undo.length > 0) undo.pop()!();
});

const lookup = tool({ name: 'orders_lookup', parameters: z.object({ orderId: z.string() }), execute: () => 'shipped' });
const judged = makePlannedCase({ assertions: [{ type: 'answerRelevance' }] as PlannedCase['assertions'] }, { suite: 's', file: 'evals/s.eval.yaml', input: 'Where is A1?' });

function settings(targets: Record<string, TargetConfig>, judging: Partial<JudgeSettings> = {}) {
  return { configFile: 'evals.config.ts', targets, judging: { judge: undefined, judges: {}, judgeFromEnv: false, ...judging } as unknown as JudgeSettings };
}

/** The error the check throws, or undefined. */
function refusal(run: () => void): UserError | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
}

describe('checkWireRefusals', () => {
  const SOL_ON_CHAT = { provider: 'openai' as const, model: 'gpt-6.2-sol', api: 'chat' as const };

  it('refuses a model-agent target with tools the table says Chat Completions refuses, at its config field; without tools it passes', () => {
    const err = refusal(() => checkWireRefusals(settings({ agent: { model: SOL_ON_CHAT, tools: [lookup] } }), [judged]));
    expect(err?.message).toBe(
      'evals.config.ts: targets.agent.model: target "agent": model openai:gpt-6.2-sol on OpenAI Chat Completions: function tools are taken only on the Responses API: set `api: \'responses\'` in the model spec, or use a model that takes tools on Chat Completions',
    );
    expect(refusal(() => checkWireRefusals(settings({ agent: { model: SOL_ON_CHAT } }), [judged]))).toBeUndefined();
  });

  it('refuses an agent judge on such a model (it always offers tools), also in a re-judge, which checks no target', () => {
    const auditor = agentJudge({ model: SOL_ON_CHAT, guards: { maxSteps: 3 } });
    const s = settings({ agent: { model: SOL_ON_CHAT, tools: [lookup] } }, { judge: 'auditor', judges: { auditor } });
    const err = refusal(() => checkWireRefusals(s, [judged], { targets: false }));
    expect(err?.message).toMatch(/^config judge "auditor" \(agent judge\): model openai:gpt-6\.2-sol on OpenAI Chat Completions: function tools are taken only on the Responses API/);
    expect(err?.message).not.toContain('target "agent"');
  });

  it('refuses a tool request with no effort on a model that takes tools only at effort none and reasons by default, never a silent none', () => {
    const err = refusal(() => checkWireRefusals(settings({ agent: { model: { provider: 'openai', model: 'gpt-6-luna', api: 'chat' }, tools: [lookup] } }), [judged]));
    expect(err?.message).toMatch(/model openai:gpt-6-luna on OpenAI Chat Completions: .*set `reasoningEffort: 'none'`.* or `api: 'responses'`/);
    expect(refusal(() => checkWireRefusals(settings({ agent: { model: { provider: 'openai', model: 'gpt-6-luna', reasoningEffort: 'none' }, tools: [lookup] } }), [judged]))).toBeUndefined();
    expect(refusal(() => checkWireRefusals(settings({ agent: { model: { provider: 'openai', model: 'gpt-6-luna', api: 'responses' }, tools: [lookup] } }), [judged]))).toBeUndefined();
    // Unforced, it goes to the Responses API (api-choice.ts), where nothing is refused.
    expect(refusal(() => checkWireRefusals(settings({ agent: { model: 'openai:gpt-6-luna', tools: [lookup] } }), [judged]))).toBeUndefined();
  });

  it("asks any wire's own check, with how the run uses the spec: a judge asks for a structured answer", () => {
    const uses: SpecUse[] = [];
    const toy: WireDescriptor = {
      ...OPENAI_WIRE,
      id: 'toy-refusing',
      label: 'Toy Refusing',
      refusal: (_spec, _caps, use) => (uses.push(use), use.structuredOutput ? 'structured answers are not taken' : undefined),
    };
    undo.push(registerWire(toy));
    undo.push(
      registerProvider({ id: 'toyr', label: 'Toy', wire: 'toy-refusing', keyEnv: 'TOY_KEY', keyRequired: false, baseURLEnv: 'TOY_BASE_URL', batch: false, source: 'a test', asOf: '2026-12-04' }),
    );
    const err = refusal(() => checkWireRefusals(settings({ agent: { model: 'toyr:m1', tools: [lookup] } }, { judge: 'toyr:m2' }), [judged]));
    expect(err?.message).toBe('config judge: model toyr:m2 on Toy Refusing: structured answers are not taken');
    expect(uses).toEqual([
      { tools: true, structuredOutput: false },
      { tools: false, structuredOutput: true },
    ]);
  });
});
