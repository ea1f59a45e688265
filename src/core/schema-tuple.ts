/**
 * The `schema` of each descriptor of a registry, as a typed tuple: what `z.union` and
 * `z.discriminatedUnion` take, so the union's type keeps every member's precise schema.
 */
export type SchemasOf<T extends readonly { schema: unknown }[]> = { -readonly [K in keyof T]: T[K]['schema'] };
