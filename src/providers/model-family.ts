/** Alias ids that name a family under another spelling. */
const ALIASES: Record<string, string> = {
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-0': 'claude-sonnet-4',
};

/**
 * The family a dated or aliased model id belongs to: `gpt-4.1-mini-2025-04-14` -> `gpt-4.1-mini`,
 * `claude-sonnet-4-5-20250929` -> `claude-sonnet-4-5`, `claude-3-5-haiku-latest` -> `claude-3-5-haiku`.
 */
export function modelFamily(model: string): string {
  const base = model
    .trim()
    .replace(/-latest$/, '')
    .replace(/-\d{4}-\d{2}-\d{2}$/, '')
    .replace(/-\d{8}$/, '');
  return ALIASES[base] ?? base;
}
