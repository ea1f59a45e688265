/** A short name for an assertion in reports: its label, else its type and main argument. */
export function assertionName(spec: { type: string; label?: string } & Record<string, unknown>): string {
  if (spec.label) return spec.label;
  // A user assertion reads as its own type: `wordCount`, not `userAssertion "wordCount"`.
  if (spec.type === 'userAssertion' && typeof spec.name === 'string') return assertionName({ type: spec.name, ...(spec.options as Record<string, unknown> | undefined) });
  if (typeof spec.tool === 'string') return `${spec.type} ${spec.tool}`;
  const arg = ['tools', 'value', 'values', 'pattern', 'path', 'max', 'name', 'question', 'criteria', 'reference', 'source', 'comparedTo'].map((k) => spec[k]).find((v) => v !== undefined);
  if (arg === undefined) return spec.type;
  const text = typeof arg === 'string' ? JSON.stringify(arg) : Array.isArray(arg) ? `[${arg.join(', ')}]` : String(arg);
  return `${spec.type} ${text.length > 60 ? `${text.slice(0, 57)}…"` : text}`;
}
