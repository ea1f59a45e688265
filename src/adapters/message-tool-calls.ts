import type { ToolCall } from '../core/agent-run.js';
import type { MessageToolCall, ModelCallMessages } from './chat-messages.js';

/**
 * The tool calls a run's model calls asked for, when no tool span recorded them (an instrumentation
 * of the model client only): given the run's model calls, a reader asked for each call in start
 * order. A call's tool calls are its answer's, and before them those its input messages hold since
 * the last user message that no earlier call's answer did (a trace missing the earlier model calls
 * still shows them). A call with an id is counted once. Each carries its arguments, and the result
 * a later tool message answered it with; whether the tool failed the messages do not say.
 */
export function messageToolCalls(calls: readonly ModelCallMessages[]): (call: ModelCallMessages | undefined) => ToolCall[] {
  const results = new Map<string, unknown>();
  for (const call of calls) for (const m of call.input) if (m.toolCallId !== undefined && m.toolResult !== undefined) results.set(m.toolCallId, m.toolResult);
  const seen = new Set<string>();
  return (call) => {
    if (!call) return [];
    const out: ToolCall[] = [];
    const add = (c: MessageToolCall, fromHistory: boolean) => {
      if (c.id !== undefined && seen.has(c.id)) return;
      if (c.id === undefined && fromHistory) return;
      if (c.id !== undefined) seen.add(c.id);
      const result = c.id === undefined ? undefined : results.get(c.id);
      out.push({ name: c.name, ...(c.args !== undefined ? { args: c.args } : {}), ...(result !== undefined ? { result } : {}) });
    };
    const sinceUser = call.input.slice(call.input.findLastIndex((m) => m.role === 'user') + 1);
    for (const m of sinceUser) for (const c of m.toolCalls) add(c, true);
    for (const m of call.output) for (const c of m.toolCalls) add(c, false);
    return out;
  };
}
