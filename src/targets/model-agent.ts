import type { ChatMessage, Provider } from '../providers/types.js';
import type { MessageTurn } from '../core/chat-turn.js';
import { mediaOf } from '../core/content-parts.js';
import type { Target, TargetSession, TrialInput } from './types.js';
import { agentTurn, type AgentLoopOptions } from './agent-loop.js';
import { historyBeforeFirstTurn, runAsOneTurn } from './session.js';
import { createToolState, type Tool, type ToolContext } from './tool.js';

export const DEFAULT_MAX_STEPS = 10;

export interface ModelAgentOptions {
  /** Created once per target (createProvider checks the API key before the run starts). */
  provider: Provider;
  instructions?: string;
  tools?: readonly Tool[];
  /** More tools, asked for at the start of each trial (an MCP server's, listed once and cached by the run). */
  moreTools?: (signal: AbortSignal) => Promise<readonly Tool[]>;
  maxSteps?: number;
  maxTokens?: number;
  temperature?: number;
}

/**
 * A model with instructions and tools, driven by the runner's tool loop. Each trial is a fresh
 * conversation; in a multi-turn case every turn continues it (history and tool state included).
 */
export function modelAgentTarget(name: string, opts: ModelAgentOptions): Target {
  const loop: AgentLoopOptions = {
    provider: opts.provider,
    instructions: opts.instructions,
    tools: opts.tools ?? [],
    maxSteps: opts.maxSteps ?? DEFAULT_MAX_STEPS,
    maxTokens: opts.maxTokens,
    temperature: opts.temperature,
  };

  const openSession = async (trial: TrialInput, signal: AbortSignal): Promise<TargetSession> => {
    const turnLoop = opts.moreTools ? { ...loop, tools: withoutClash([...loop.tools, ...(await opts.moreTools(signal))]) } : loop;
    const history: ChatMessage[] = historyBeforeFirstTurn(trial).map(toChatMessage);
    const state = createToolState();
    return {
      async send(message, signal, parts) {
        history.push(toChatMessage({ role: 'user', content: message, ...(parts ? { parts } : {}) }));
        const toolCtx: ToolContext = { signal, trial, state };
        const run = await agentTurn(turnLoop, history, toolCtx, signal);
        // A reply ending the turn is part of the history the next turn sees.
        if (run.stopReason !== 'max_steps') history.push({ role: 'assistant', content: run.reply });
        return run;
      },
      async close() {},
    };
  };

  return {
    name,
    model: opts.provider.spec,
    ...(opts.instructions !== undefined ? { instructions: opts.instructions } : {}),
    openSession,
    run: (trial, signal) => runAsOneTurn(openSession, trial, signal),
  };
}

/** The tools, refused when two have one name (an MCP tool's prefixed name that another tool has too). */
function withoutClash(tools: Tool[]): Tool[] {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`two tools are named "${t.name}": give the MCP server a toolPrefix that sets its tools apart`);
    seen.add(t.name);
  }
  return tools;
}

/** A turn as the provider layer takes it: a user message's images and files as its attachments. */
function toChatMessage(t: MessageTurn): ChatMessage {
  const attachments = t.role === 'user' ? mediaOf(t.parts) : [];
  return attachments.length ? { role: 'user', content: t.content, attachments } : { role: t.role, content: t.content };
}
