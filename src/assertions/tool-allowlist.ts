import { z } from 'zod';
import { toolCallsOf, type ToolCall } from '../core/agent-run.js';
import { assertionObject, defineAssertion, final } from './define.js';
import { binary, nameList, plural } from './format.js';
import { trajectoryCheck } from './trajectory.js';

/**
 * Least privilege: the agent may call only the listed tools. Written as `onlyTools: [...]` on a
 * suite or a case (the case's list replaces the suite's), which plans into this gate; an eval file
 * may also give it as an assertion. Its `evidence` is the tools called outside the list, which the
 * run summary gathers (`summary.toolsOutsideAllowlist`).
 */
export const ALLOWLIST_TYPE = 'onlyTools';

/** The tools called outside the list, each once, in first-call order. */
export function toolsOutside(calls: readonly ToolCall[], allowed: readonly string[]): string[] {
  const ok = new Set(allowed);
  return [...new Set(calls.map((c) => c.name).filter((name) => !ok.has(name)))];
}

export const onlyTools = final(
  defineAssertion(
    assertionObject(ALLOWLIST_TYPE, { tools: z.array(z.string().min(1)) }),
    trajectoryCheck(
      (spec) => `onlyTools ${nameList(spec.tools)}`,
      (spec, ctx) => {
        const calls = toolCallsOf(ctx.run);
        const outside = toolsOutside(calls, spec.tools);
        const count = calls.filter((c) => outside.includes(c.name)).length;
        return {
          score: binary(outside.length === 0),
          message:
            outside.length === 0
              ? `onlyTools ${nameList(spec.tools)}: ${plural(calls.length, 'tool call')}, all allowed`
              : `onlyTools ${nameList(spec.tools)}: called ${nameList(outside)} outside the allowlist (${plural(count, 'call')})`,
          ...(outside.length ? { evidence: outside } : {}),
        };
      },
    ),
  ),
);

/** The gate a suite's or case's `onlyTools` plans into, first among the case's assertions. */
export function allowlistSpec(tools: readonly string[]): z.output<typeof onlyTools.schema> {
  return { type: ALLOWLIST_TYPE, tools: [...tools] };
}
