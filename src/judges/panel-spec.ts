import { z } from 'zod';
import { ModelRefSchema } from '../providers/model-ref.js';
import { PanelAggregateSchema, type PanelAggregate } from '../core/panel-aggregate.js';

/** A panel member in an eval file: a judge reference as `judge:` takes it (`provider:model`, a configured judge's name, `fake`). */
const PanelMemberSchema = z.union([ModelRefSchema, z.looseObject({ provider: z.literal('fake'), fixtures: z.string().optional() })]);

/** `judge: { panel: [a, b, c], aggregate }`: each member judges as it would alone; `aggregate` (default majority) decides. */
export function panelSchema<M extends z.ZodType>(member: M) {
  return z
    .object({
      panel: z.array(member).min(2, 'a panel needs at least two judges'),
      aggregate: PanelAggregateSchema.optional(),
    })
    .strict();
}

export const PanelRefSchema = panelSchema(PanelMemberSchema);

/** A panel whose members may be anything a judge reference is (the config adds judge objects). */
export interface PanelRef<M = unknown> {
  panel: M[];
  aggregate?: PanelAggregate;
}

/** `judge:` of a judged assertion: one judge, or a panel. */
export const AssertionJudgeSchema = z.union([ModelRefSchema, PanelRefSchema]);

export function isPanelRef(ref: unknown): ref is PanelRef {
  return typeof ref === 'object' && ref !== null && Array.isArray((ref as { panel?: unknown }).panel);
}

/** What is wrong with a panel: a nested panel, or the first member with a problem (named by its place). */
export function panelProblem(ref: PanelRef, memberProblem: (member: unknown) => string | undefined): string | undefined {
  for (const [i, member] of ref.panel.entries()) {
    const problem = isPanelRef(member) ? 'a panel member cannot be a panel' : memberProblem(member);
    if (problem) return `panel[${i}]: ${problem}`;
  }
  return undefined;
}
