import { z } from 'zod';

/**
 * What a case of an `mcp` target asks: its `input` is JSON text naming one tool call, or a list of
 * calls made in order on one connection. The reply is the last call's result; every call is on the
 * trajectory.
 */

const McpCallSchema = z
  .object({
    /** The tool's name as the server lists it (no prefix). */
    tool: z.string().min(1),
    /** The call's arguments; default `{}`. */
    arguments: z.record(z.string(), z.unknown()).optional(),
    /** This call is expected to be a tool error: its error text is then the reply, and a success fails the case. */
    expectError: z.boolean().optional(),
    /** Check the result's structured content against the tool's declared `outputSchema`; a mismatch fails the case. */
    checkOutputSchema: z.boolean().optional(),
  })
  .strict();
export type McpCall = z.infer<typeof McpCallSchema>;

const McpCaseSchema = z.union([McpCallSchema, z.array(McpCallSchema).min(1)]);

export type McpCaseRead = { ok: true; calls: McpCall[] } | { ok: false; error: string };

/** The calls a case's input asks for, or what is wrong with it (worded for the eval file's author). */
export function readMcpCase(input: string): McpCaseRead {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return { ok: false, error: 'the input of an mcp case is JSON: {"tool": "<name>", "arguments": {...}} or a list of such calls' };
  }
  const parsed = McpCaseSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    return {
      ok: false,
      error: `the input of an mcp case${at ? ` at ${at}` : ''}: ${issue.message} (a call is {"tool": "<name>", "arguments": {...}, "expectError"?: true, "checkOutputSchema"?: true})`,
    };
  }
  return { ok: true, calls: Array.isArray(parsed.data) ? parsed.data : [parsed.data] };
}
