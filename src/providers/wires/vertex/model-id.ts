/**
 * Claude's model ids on Vertex AI, as the Anthropic rows of the capability and price tables know
 * them: `claude-sonnet-4-5@20250929` is a version of `claude-sonnet-4-5` (Anthropic docs: Claude on
 * Vertex AI, model names; read 2026-12-04). An id without `@` is Anthropic's own.
 */
export function vertexTableModel(model: string): string {
  return model.trim().replace(/@[^@]*$/, '');
}
