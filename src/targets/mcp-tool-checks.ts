import { compileJsonSchema } from '../assertions/json-schema-validator.js';
import type { McpToolInfo } from './mcp-result.js';

/**
 * The static checks of `agent-evals mcp-check`: what a server's tool list says about each tool,
 * before any call. A failure breaks a rule (of the MCP specification, or of a client that refuses
 * such a tool); a warning is a limit some major client applies by cutting or renaming.
 */

/**
 * Tool names. The MCP specification (revision 2025-11-25, "Tool names", from SEP-986), as read on
 * 2026-12-04: 1 to 64 characters; ASCII letters, digits, "_", "-", "." and "/".
 */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_./-]{1,64}$/;
/**
 * The function names the OpenAI and Anthropic APIs accept, as their API references state on
 * 2026-12-04: 1 to 64 characters, letters, digits, "_" and "-" (no "." or "/"). Clients that offer
 * MCP tools to those models must rename a tool outside this.
 */
export const MODEL_API_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Claude Code offers a server's tool as `mcp__<server>__<tool>` and refuses names over 64 characters
 * in all (its documentation and users' reports, read on 2026-12-04): room left for the server's name.
 */
export const PREFIXED_NAME_LIMIT = 64;
/** Claude Code cuts an MCP tool's description at 2,048 characters (as documented on 2026-12-04). */
export const DESCRIPTION_LIMIT = 2048;

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';
export interface ToolCheck {
  check: string;
  status: CheckStatus;
  detail: string;
}

export function staticToolChecks(tool: McpToolInfo, serverName: string): ToolCheck[] {
  return [
    nameCheck(tool.name, serverName),
    descriptionCheck(tool.description),
    schemaCheck('inputSchema', tool.inputSchema),
    ...(tool.outputSchema ? [schemaCheck('outputSchema', tool.outputSchema)] : []),
  ];
}

function nameCheck(name: string, serverName: string): ToolCheck {
  if (!MCP_TOOL_NAME.test(name)) {
    return { check: 'name', status: 'fail', detail: `${JSON.stringify(name)} is not 1-64 of A-Z a-z 0-9 _ - . / (the MCP specification's tool name rule)` };
  }
  if (!MODEL_API_TOOL_NAME.test(name)) return { check: 'name', status: 'warn', detail: 'has "." or "/", which the OpenAI and Anthropic APIs refuse in a tool name: a client must rename it' };
  const prefixed = `mcp__${serverName}__${name}`;
  if (prefixed.length > PREFIXED_NAME_LIMIT) return { check: 'name', status: 'warn', detail: `${prefixed} is ${prefixed.length} characters, over the ${PREFIXED_NAME_LIMIT} Claude Code accepts` };
  return { check: 'name', status: 'pass', detail: `${name.length} characters` };
}

function descriptionCheck(description: string | undefined): ToolCheck {
  if (description === undefined || description.trim() === '') return { check: 'description', status: 'fail', detail: 'missing: a model chooses a tool by its description' };
  if (description.length > DESCRIPTION_LIMIT) return { check: 'description', status: 'warn', detail: `${description.length} characters, over the ${DESCRIPTION_LIMIT} Claude Code keeps` };
  return { check: 'description', status: 'pass', detail: `${description.length} characters` };
}

function schemaCheck(field: 'inputSchema' | 'outputSchema', schema: Record<string, unknown>): ToolCheck {
  // The specification types both as a JSON Schema object whose root is `type: "object"`.
  if (schema.type !== 'object') return { check: field, status: 'fail', detail: `its root is not "type": "object" (the MCP specification requires it)` };
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return { check: field, status: 'fail', detail: `not valid JSON Schema${compiled.path.length ? ` at ${compiled.path.join('/')}` : ''}: ${compiled.error}` };
  return { check: field, status: 'pass', detail: `valid JSON Schema (${compiled.dialect})` };
}

/**
 * Arguments the tool's input schema refuses, to see the server answer them with a tool error; none
 * when the schema accepts every object (nothing to send that is wrong).
 */
export function invalidArgumentsFor(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const candidates: Record<string, unknown>[] = [{}];
  for (const [key, prop] of Object.entries(properties)) {
    const type = isObject(prop) ? prop.type : undefined;
    candidates.push({ [key]: type === 'string' ? 12345 : type === 'object' ? 'not an object' : { wrong: 'type' } });
  }
  candidates.push({ agent_evals_unexpected_argument: true });
  return candidates.find((args) => compiled.validate(args).length > 0);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
