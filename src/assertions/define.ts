import { z } from 'zod';
import { assertionCommonFields, type AssertionContext, type CheckOutcome } from './types.js';
import type { Severity } from '../core/results-schema.js';

/**
 * The zod object of one assertion type: its `type` literal, its own fields and the common
 * fields. Strict, so a misspelt field is a load error rather than a silently ignored option.
 */
export function assertionObject<const T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), ...shape, ...assertionCommonFields }).strict();
}

type TypedObject = z.ZodObject<{ type: z.ZodLiteral<string> } & z.ZodRawShape, z.core.$strict>;

/**
 * A definition that keeps the precise zod object type on `schema`, so the registry can hand
 * `z.discriminatedUnion` a typed tuple. The registry checks each against `AssertionDefinition`.
 */
export interface TypedAssertion<Sc extends TypedObject> {
  type: z.output<Sc['shape']['type']>;
  schema: Sc;
  defaultSeverity: Severity;
  final?: boolean;
  check(spec: z.output<Sc>, ctx: AssertionContext): CheckOutcome;
}

export function defineAssertion<Sc extends TypedObject>(schema: Sc, check: (spec: z.output<Sc>, ctx: AssertionContext) => CheckOutcome, defaultSeverity: Severity = 'gate'): TypedAssertion<Sc> {
  const type = schema.shape.type.value as z.output<Sc['shape']['type']>;
  return { type, schema, defaultSeverity, check };
}

/**
 * Marks a definition final (`AssertionDefinition.final`): what the conversation so far did wrong stays
 * wrong whatever later turns do, so `simulatedUser.endOnFail` may end the conversation on its failure.
 */
export function final<Sc extends TypedObject>(definition: TypedAssertion<Sc>): TypedAssertion<Sc> {
  return { ...definition, final: true };
}
