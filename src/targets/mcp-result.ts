/**
 * A tool's answer as an `mcp` target's reply: the structured content as JSON when the tool gave
 * some (it is what an `outputSchema` describes), else the text blocks joined by newlines, with a
 * short placeholder for each block that is not text.
 */

/** The parts of an MCP tool definition this target reads (the SDK's `Tool`). */
export interface McpToolInfo {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
}

/** The parts of a `tools/call` result this target reads (the SDK's `CallToolResult`). */
export interface McpToolResult {
  content?: ReadonlyArray<{ type: string; text?: string; mimeType?: string; uri?: string; resource?: { uri?: string } }>;
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
}

export function replyOfResult(result: McpToolResult): string {
  if (result.structuredContent !== undefined && result.isError !== true) return JSON.stringify(result.structuredContent);
  return (result.content ?? []).map(blockText).join('\n');
}

function blockText(block: NonNullable<McpToolResult['content']>[number]): string {
  if (block.type === 'text') return block.text ?? '';
  const what = block.mimeType ?? block.uri ?? block.resource?.uri;
  return `[${block.type}${what ? ` ${what}` : ''}]`;
}
