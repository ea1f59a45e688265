import { stableHash } from '../core/stable-hash.js';
import type { GeneratedItem, ItemKind } from './generated-item.js';

/** One draft case as the eval file holds it: `draft: true` until a person accepts it in `review`. */
export interface DraftCase {
  id: string;
  input: string;
  draft: true;
  reference?: string;
  metadata: { intent: string; kind: ItemKind; generatedBy: string };
  assert: DraftAssertion[];
}

export type DraftAssertion = { type: 'calledTool' | 'notCalledTool'; tool: string } | { type: 'usedNoTools' } | { type: 'lengthBetween'; min: 1 };

/**
 * The draft cases of the kept items, in order: a trajectory skeleton of `calledTool` for each expected
 * tool and `notCalledTool` for each tool to avoid, naming only tools the target has (any other name is
 * dropped and counted in `unknownTools`; a tool both expected and avoided is only expected). A case
 * loads only with an assertion: an item that expects no tool of a target with tools says a correct
 * agent answers without one (`usedNoTools`); one left with no tool to check (its tools unknown, or the
 * target's) gets the weakest gate, a reply that is not empty, for the reviewer to replace. Ids are a
 * slug of the input and a hash of it, as `import` makes them: drafting the same input again gives the same id.
 */
export function draftCases(items: readonly GeneratedItem[], tools: readonly string[], generatedBy: string): { cases: DraftCase[]; unknownTools: number } {
  const offered = new Set(tools);
  let unknownTools = 0;
  const known = (names: readonly string[]) => {
    const unique = [...new Set(names)];
    const kept = unique.filter((n) => offered.has(n));
    unknownTools += unique.length - kept.length;
    return kept;
  };
  const cases = items.map((item): DraftCase => {
    const expected = known(item.expectedTools);
    const avoid = known(item.avoidTools ?? []).filter((t) => !expected.includes(t));
    return {
      id: caseId(item.input),
      input: item.input,
      draft: true,
      ...(item.reference !== undefined ? { reference: item.reference } : {}),
      metadata: { intent: item.intent, kind: item.kind, generatedBy },
      assert: skeleton(item, expected, avoid, offered.size > 0),
    };
  });
  return { cases, unknownTools };
}

function skeleton(item: GeneratedItem, expected: readonly string[], avoid: readonly string[], hasTools: boolean): DraftAssertion[] {
  const assert: DraftAssertion[] = [...expected.map((tool) => ({ type: 'calledTool' as const, tool })), ...avoid.map((tool) => ({ type: 'notCalledTool' as const, tool }))];
  if (assert.length) return assert;
  if (hasTools && item.expectedTools.length === 0) return [{ type: 'usedNoTools' }];
  return [{ type: 'lengthBetween', min: 1 }];
}

/** `where-is-my-order-3f9c2a1b`: the input's first words and a hash of it. */
function caseId(input: string): string {
  const words = input.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const slug = words.slice(0, 4).join('-').slice(0, 32).replace(/-+$/, '');
  return `${slug || 'case'}-${stableHash({ input }, 8)}`;
}
