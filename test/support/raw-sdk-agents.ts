/**
 * A two-tool refund agent written on the plain SDKs, with no adapter: the tool loop of Chat
 * Completions (plain and streamed), the Responses API (plain and streamed) and Anthropic Messages.
 * Each sends the model's tool calls back with their results as that API wants them; a tool that
 * throws goes back as an error result (Anthropic `is_error`, on OpenAI an `Error:` text). The fake
 * servers' script (`refundScript`) plays the model: look the order up, refund it, answer.
 */
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { Scripted } from './fake-server.js';

export const OPENAI_MODEL = 'gpt-4.1-mini';
export const ANTHROPIC_MODEL = 'claude-haiku-4-5';

const orderIdSchema = { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false };
const TOOLS = [
  { name: 'orders_lookup', description: 'Look up an order by id' },
  { name: 'refunds_issue', description: 'Refund a delivered order' },
] as const;

/** The tools: B2 is not delivered, so refunding it fails. */
function runTool(name: string, args: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  const orderId = (args as { orderId?: string }).orderId ?? '';
  const delivered = orderId !== 'B2';
  if (name === 'orders_lookup') return { ok: true, value: { orderId, status: delivered ? 'delivered' : 'in transit' } };
  if (name === 'refunds_issue') return delivered ? { ok: true, value: { refundId: `R-${orderId}` } } : { ok: false, error: `order ${orderId} is not delivered yet` };
  return { ok: false, error: `unknown tool ${name}` };
}

/** A tool's outcome as OpenAI text: OpenAI's wire has no error flag, so a failure says `Error:`. */
function openaiOutput(name: string, argsJson: string): string {
  const out = runTool(name, JSON.parse(argsJson));
  return out.ok ? JSON.stringify(out.value) : `Error: ${out.error}`;
}

/** `input`: the user message, or the conversation so far (kept by the caller across turns, added to here). */
export async function chatAgent(input: string | OpenAI.Chat.ChatCompletionMessageParam[], client: OpenAI, stream: boolean): Promise<string> {
  const tools: OpenAI.Chat.ChatCompletionFunctionTool[] = TOOLS.map((t) => ({ type: 'function', function: { ...t, parameters: orderIdSchema } }));
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  for (let step = 0; step < 5; step++) {
    const params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { model: OPENAI_MODEL, messages, tools };
    const completion = stream
      ? await client.chat.completions.stream({ ...params, stream: true, stream_options: { include_usage: true } }).finalChatCompletion()
      : await client.chat.completions.create(params);
    const message = completion.choices[0]!.message;
    const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
    if (calls.length === 0) return message.content ?? '';
    messages.push({
      role: 'assistant',
      content: message.content,
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } })),
    });
    for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: openaiOutput(c.function.name, c.function.arguments) });
  }
  return 'gave up';
}

export async function responsesAgent(input: string, client: OpenAI, stream: boolean): Promise<string> {
  const tools: OpenAI.Responses.FunctionTool[] = TOOLS.map((t) => ({ type: 'function', ...t, parameters: orderIdSchema, strict: true }));
  const items: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: input }];
  for (let step = 0; step < 5; step++) {
    const params = { model: OPENAI_MODEL, input: items, tools } satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const response: OpenAI.Responses.Response = stream ? await client.responses.stream(params).finalResponse() : await client.responses.create(params);
    const calls = response.output.filter((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');
    if (calls.length === 0) return response.output_text;
    for (const c of calls) {
      items.push({ type: 'function_call', call_id: c.call_id, name: c.name, arguments: c.arguments });
      items.push({ type: 'function_call_output', call_id: c.call_id, output: openaiOutput(c.name, c.arguments) });
    }
  }
  return 'gave up';
}

export async function anthropicAgent(input: string, client: Anthropic): Promise<string> {
  const tools: Anthropic.Tool[] = TOOLS.map((t) => ({ ...t, input_schema: { type: 'object', properties: orderIdSchema.properties, required: orderIdSchema.required } }));
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: input }];
  for (let step = 0; step < 5; step++) {
    const params: Anthropic.MessageCreateParamsNonStreaming = { model: ANTHROPIC_MODEL, max_tokens: 1024, messages, tools };
    const message = await client.messages.create(params);
    const uses = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    if (uses.length === 0) return text;
    messages.push({
      role: 'assistant',
      content: [...(text ? [{ type: 'text' as const, text }] : []), ...uses.map((u): Anthropic.ToolUseBlockParam => ({ type: 'tool_use', id: u.id, name: u.name, input: u.input }))],
    });
    messages.push({
      role: 'user',
      content: uses.map((u): Anthropic.ToolResultBlockParam => {
        const out = runTool(u.name, u.input);
        return { type: 'tool_result', tool_use_id: u.id, content: out.ok ? JSON.stringify(out.value) : out.error, ...(out.ok ? {} : { is_error: true }) };
      }),
    });
  }
  return 'gave up';
}

/** How many tool results a request sends back, in any of the three wire formats. */
function resultsSent(body: any): number {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  return messages.filter((m) => m.role === 'tool').length + input.filter((i) => i.type === 'function_call_output').length + blocks.filter((b) => b.type === 'tool_result').length;
}

/** The model: looks the order of the request up, then refunds it, then answers. */
export function refundScript(body: any): Scripted {
  const orderId = /order ([A-Z]\d)/.exec(JSON.stringify(body?.messages ?? body?.input))?.[1] ?? 'A1';
  const sent = resultsSent(body);
  if (sent === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId } }] };
  if (sent === 1) return { toolCalls: [{ name: 'refunds_issue', args: { orderId } }] };
  return { text: `Done with order ${orderId}.` };
}
