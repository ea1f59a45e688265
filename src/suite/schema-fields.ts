import { z } from 'zod';

type Schema = z.core.$ZodType;
type Def = { type: string } & Record<string, unknown>;

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;

/**
 * The field names the object `schema` holds at `path` takes, walked beside the value the user gave
 * (`input`) so a discriminated union picks the branch of the value's own `type`; [] where the walk
 * cannot tell (a function, a custom value). What an "unknown field" error suggests from.
 */
export function fieldsAt(schema: Schema, path: readonly PropertyKey[], input: unknown): string[] {
  return [...new Set(objectsAt(schema, path, input).flatMap((o) => Object.keys(defOf(o).shape as object)))];
}

function objectsAt(schema: Schema, path: readonly PropertyKey[], value: unknown): Schema[] {
  const def = defOf(schema);
  const [key, ...rest] = path;
  const child = (s: unknown) => objectsAt(s as Schema, rest, at(value, key));
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return objectsAt(def.innerType as Schema, path, value);
    case 'pipe':
      return objectsAt(def.in as Schema, path, value);
    case 'lazy':
      return objectsAt((def.getter as () => Schema)(), path, value);
    case 'intersection':
      return [...objectsAt(def.left as Schema, path, value), ...objectsAt(def.right as Schema, path, value)];
    case 'union':
      return branchesOf(def, value).flatMap((option) => objectsAt(option, path, value));
    case 'object':
      if (key === undefined) return [schema];
      return typeof key === 'string' && Object.hasOwn(def.shape as object, key) ? child((def.shape as Record<string, Schema>)[key]) : [];
    case 'array':
      return typeof key === 'number' ? child(def.element) : [];
    case 'record':
      return key === undefined ? [] : child(def.valueType);
    default:
      return [];
  }
}

/** A discriminated union's branch for the value's discriminator (all branches when none matches); a plain union's branches. */
function branchesOf(def: Def, value: unknown): Schema[] {
  const options = def.options as Schema[];
  const discriminator = def.discriminator as string | undefined;
  if (discriminator === undefined) return options;
  const tag = at(value, discriminator);
  const matching = options.filter((o) => {
    const field = (defOf(o).shape as Record<string, Schema> | undefined)?.[discriminator];
    return field !== undefined && z.safeParse(field, tag).success;
  });
  return matching.length > 0 ? matching : options;
}

function at(value: unknown, key: PropertyKey | undefined): unknown {
  return key !== undefined && value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
}
