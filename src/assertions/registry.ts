import type { z } from 'zod';
import type { SchemasOf } from '../core/schema-tuple.js';
import { boundsAssertions } from './bounds.js';
import { similarityAssertions } from './similarity.js';
import { structureAssertions } from './structure.js';
import { textAssertions } from './text.js';
import { trajectoryAssertions } from './trajectory.js';
import { onlyTools } from './tool-allowlist.js';
import { noLeak } from './no-leak.js';
import type { AssertionDefinition } from './types.js';

export { customAssertionSchema } from './custom.js';

/** Every deterministic assertion a YAML file may use (`custom` is TypeScript-only, see custom.ts). */
const definitions = [...textAssertions, ...structureAssertions, ...similarityAssertions, ...trajectoryAssertions, onlyTools, noLeak, ...boundsAssertions] as const;

/** The zod objects, as a typed tuple, for the lead's `z.discriminatedUnion('type', [...])`. */
export const deterministicAssertionSchemas = definitions.map((d) => d.schema) as SchemasOf<typeof definitions>;

export type DeterministicAssertionSpec = z.output<(typeof deterministicAssertionSchemas)[number]>;
export type DeterministicAssertionType = DeterministicAssertionSpec['type'];

// Typed as the plain contract: a definition that does not fit it is a compile error here.
export const deterministicAssertions: readonly AssertionDefinition[] = definitions;

export const deterministicAssertionRegistry: ReadonlyMap<string, AssertionDefinition> = new Map(deterministicAssertions.map((d) => [d.type, d]));

export const deterministicAssertionTypes: string[] = deterministicAssertions.map((d) => d.type);

/** The types whose failure no later turn can undo (`final`), in registry order: what `simulatedUser.endOnFail` checks after each turn. */
export const finalAssertionTypes: string[] = deterministicAssertions.filter((d) => d.final === true).map((d) => d.type);

/** Whether a spec is of a final type (a judge, a `custom` or a user assertion never is). */
export function isFinalAssertion(spec: { type: string }): boolean {
  return deterministicAssertionRegistry.get(spec.type)?.final === true;
}
