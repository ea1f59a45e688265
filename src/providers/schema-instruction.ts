/**
 * For a server without structured output (capability `text`): the JSON Schema spelled out in the
 * prompt, the JSON then read from the reply. The same words the judge prompt uses when it spells
 * the schema out itself.
 */
export function schemaInstruction(jsonSchema: Record<string, unknown>): string {
  return `Respond with only a JSON object that matches this JSON Schema:\n${JSON.stringify(jsonSchema)}`;
}
