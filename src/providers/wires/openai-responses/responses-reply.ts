/**
 * Pure reading of a Responses API response (`openai` 6.49's `Response`) into ours: the text of its
 * `message` items, a `refusal` part as the refusal, `function_call` items as tool calls, usage with
 * reasoning and cached tokens, and an incomplete response's reason named (the SDK's `Response` type
 * and its doc comments, read 2026-12-04).
 */
import type OpenAI from 'openai';
import type { TokenUsage } from '../../../core/usage.js';
import { malformed } from '../../errors.js';
import { withRawBody } from '../../raw-body.js';
import type { CompletionResponse, ProviderBlocks, ProviderToolCall } from '../../types.js';
import { parseArgs } from '../../wire-bodies.js';
import { RESPONSES_WIRE_ID } from './wire-id.js';

/** Like Chat Completions' usage: input counts the cached tokens, output the reasoning tokens (core/usage.ts). */
export function fromResponsesUsage(u: OpenAI.Responses.ResponseUsage | undefined | null): TokenUsage {
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: u?.output_tokens ?? 0,
    cachedInputTokens: u?.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** `incomplete_details.reason` as our finish reasons: a cut at the limit is `length`, a filtered answer a refusal. */
const INCOMPLETE: Record<string, string> = { max_output_tokens: 'length', content_filter: 'refusal' };

export function fromResponse(r: OpenAI.Responses.Response): CompletionResponse {
  if (!r || !Array.isArray(r.output)) throw malformed('openai', 'no output array in the response');
  if (r.status === 'failed') throw malformed('openai', `the response failed: ${r.error ? `${r.error.code}: ${r.error.message}` : 'no error given'}`);
  const texts: string[] = [];
  const refusals: string[] = [];
  const toolCalls: ProviderToolCall[] = [];
  for (const item of r.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') texts.push(part.text);
        else if (part.type === 'refusal') refusals.push(part.refusal);
      }
    } else if (item.type === 'function_call') toolCalls.push({ id: item.call_id, name: item.name, args: parseArgs(item.arguments) });
  }
  const refusal = refusals.length > 0 ? refusals.join('') : undefined;
  const incomplete = r.status === 'incomplete' ? (r.incomplete_details?.reason ?? 'incomplete') : undefined;
  const finishReason = incomplete !== undefined ? (INCOMPLETE[incomplete] ?? incomplete) : refusal !== undefined ? 'refusal' : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const replay = turnToReplay(r.output);
  return withRawBody(
    {
      text: texts.length > 0 ? texts.join('') : (refusal ?? ''),
      toolCalls,
      usage: fromResponsesUsage(r.usage),
      finishReason,
      ...(refusal !== undefined ? { refusal } : {}),
      model: r.model,
      ...(replay ? { providerBlocks: replay } : {}),
    },
    r,
  );
}

/**
 * The turn to send back unchanged when it holds reasoning: its reasoning items (encrypted content
 * untouched), messages and function calls in their order. The API refuses a function call sent
 * without the reasoning item that preceded it ("Item 'fc_…' of type 'function_call' was provided
 * without its required 'reasoning' item", as quoted in OpenAI community threads read 2026-12-04).
 */
function turnToReplay(output: readonly OpenAI.Responses.ResponseOutputItem[]): ProviderBlocks | undefined {
  if (!output.some((item) => item.type === 'reasoning')) return undefined;
  const blocks = output.filter((item) => item.type === 'reasoning' || item.type === 'message' || item.type === 'function_call');
  return { wire: RESPONSES_WIRE_ID, blocks };
}
