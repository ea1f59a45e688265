import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import type { ChatMessage, CompletionResponse, Provider, ProviderTool, ProviderToolCall } from '../providers/types.js';
import { executeTool, providerToolOf, toolResultText, type Tool, type ToolContext } from './tool.js';
import { keepPartialOnAbort, withPartialRun } from './partial-run.js';
import { standInCall } from './tool-tape-scope.js';
import { toolDigests } from './tool-digests.js';

export interface AgentLoopOptions {
  provider: Provider;
  instructions: string | undefined;
  tools: readonly Tool[];
  /** Model calls allowed in one turn. */
  maxSteps: number;
  maxTokens: number | undefined;
  temperature: number | undefined;
}

/** Why a turn ended: a final answer, or the guard that stopped it. */
export type StopReason = 'stop' | 'max_steps' | 'max_tokens' | 'refusal' | (string & {});

/**
 * One user turn of a model agent: model → tool calls (run concurrently, answered in call order) →
 * model, until the model answers without calling a tool or a guard stops it. `history` already
 * ends with the user message and is extended in place, so the next turn continues the same
 * conversation. Each model call is one step carrying its own usage and `provider:model`.
 */
export async function agentTurn(opts: AgentLoopOptions, history: ChatMessage[], toolCtx: ToolContext, signal: AbortSignal): Promise<AgentRun> {
  const steps: Step[] = [];
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  const providerTools: ProviderTool[] = opts.tools.map(providerToolOf);
  // What the model was offered, recorded even when the turn fails: a baseline compares it (`tools changed`).
  const offered = toolDigests(opts.tools);
  const partial = (reply: string): AgentRun => ({ reply, steps, ...(opts.instructions !== undefined ? { instructions: opts.instructions } : {}), toolDigests: { ...offered } });
  // A timeout settles the trial at once: the steps taken by then go with its error.
  const release = keepPartialOnAbort(signal, () => ({ ...partial(''), steps: [...steps] }));

  try {
    for (let n = 1; ; n++) {
      signal.throwIfAborted();
      const res = await opts.provider.complete({
        ...(opts.instructions ? { system: opts.instructions } : {}),
        messages: history,
        ...(providerTools.length > 0 ? { tools: providerTools, toolChoice: 'auto' as const } : {}),
        ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
        ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
        signal,
      });
      const refused = res.finishReason === 'refusal' ? { refusal: res.refusal ?? res.text } : {};
      const step: Step = { ...(res.text ? { text: res.text } : {}), usage: res.usage, model: modelOf(opts.provider, res), ...refused };
      steps.push(step);

      // A reply cut at maxTokens may hold half-written tool calls: they are not run.
      if (res.finishReason === 'length') return finish(partial(res.text), 'max_tokens');
      if (res.toolCalls.length === 0) return finish(partial(res.text), res.finishReason === 'refusal' ? 'refusal' : 'stop');

      // A thinking model's turn goes back as it came (thinking blocks and their signatures included):
      // the provider refuses a tool loop that drops or edits them.
      history.push({ role: 'assistant', content: res.text, toolCalls: res.toolCalls, ...(res.providerBlocks ? { providerBlocks: res.providerBlocks } : {}) });
      const calls = await Promise.all(res.toolCalls.map((call) => runCall(call, byName, toolCtx)));
      step.toolCalls = calls.map((c) => c.record);
      for (const [i, call] of res.toolCalls.entries()) {
        const { content, record } = calls[i]!;
        history.push({ role: 'tool', toolCallId: call.id, name: call.name, content, ...(record.isError ? { isError: true } : {}) });
      }
      // The calls of the last allowed step are still run (the agent made them), as agent SDKs do.
      if (n >= opts.maxSteps) return finish(partial(res.text), 'max_steps');
    }
  } catch (err) {
    throw withPartialRun(err, partial(''));
  } finally {
    release();
  }
}

function finish(run: AgentRun, stopReason: StopReason): AgentRun {
  return { ...run, stopReason };
}

/** What prices the step: the model the server says answered (dated ids resolve to their family). */
function modelOf(provider: Provider, res: CompletionResponse): string {
  return `${provider.id}:${res.model || provider.model}`;
}

async function runCall(call: ProviderToolCall, byName: Map<string, Tool>, ctx: ToolContext): Promise<{ content: string; record: ToolCall }> {
  const started = performance.now();
  const t = byName.get(call.name);
  // The case's `toolResults`, or `--replay-tools`: a call they hold is answered with their result, the tool not run.
  const standIn = standInCall(call.name, call.args);
  const outcome = standIn
    ? { result: standIn.result, isError: standIn.isError }
    : t
      ? await executeTool(t, call.args, ctx)
      : { result: `unknown tool "${call.name}" (available: ${[...byName.keys()].join(', ') || 'none'})`, isError: true };
  const durationMs = performance.now() - started;
  const result = jsonSafe(outcome.result);
  return {
    content: toolResultText(result),
    record: {
      name: call.name,
      args: call.args,
      ...(result !== undefined ? { result } : {}),
      isError: outcome.isError,
      ...(t?.server !== undefined ? { server: t.server } : {}),
      durationMs,
      ...(standIn?.injected ? { injected: true } : {}),
    },
  };
}

/** Tool results go into the results JSON: keep them to what JSON can hold. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined || typeof value === 'string') return value;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return String(value);
  }
}
