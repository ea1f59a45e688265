/**
 * Function tools on Chat Completions, by the capability table's `chatTools` (OpenAI docs: deployment
 * checklist and the GPT-6 Luna model page, read 2026-12-01): some models take them only on the
 * Responses API, others only with reasoning off. Pure and SDK-free: the request builder and the
 * plan-time check (the wire's `refusal`) read the same rule.
 */
import type { ModelCapabilities } from '../../capabilities.js';
import type { SpecUse } from '../../wire-descriptor.js';
import type { ModelSpec } from '../../model-spec.js';

type ToolCaps = Pick<ModelCapabilities, 'chatTools' | 'thinking'>;

/** Whether a model that is not asked for an effort reasons anyway (then a tool request at `none` would change the agent). */
function reasonsByDefault(caps: ToolCaps): boolean {
  return caps.thinking !== 'off' && caps.thinking !== 'optional';
}

/**
 * The reasoning effort a request with function tools carries: the spec's own; with none set, `none`
 * only for a model that takes tools only with reasoning off and does not reason unless asked (the
 * same agent either way). Never a silent `none` for a model that reasons by default.
 */
export function chatToolsEffort(caps: ToolCaps, effort: string | undefined): string | undefined {
  if (effort === undefined && caps.chatTools === 'reasoning-off' && !reasonsByDefault(caps)) return 'none';
  return effort;
}

/** What Chat Completions refuses of a tool request at `effort` (sent as chatToolsEffort says): the setting and the fix, or undefined. */
export function chatToolsRefusal(caps: ToolCaps, effort: string | undefined): string | undefined {
  if (caps.chatTools === 'none') return "function tools are taken only on the Responses API: set `api: 'responses'` in the model spec, or use a model that takes tools on Chat Completions";
  if (caps.chatTools !== 'reasoning-off') return undefined;
  const sent = chatToolsEffort(caps, effort);
  if (sent === 'none') return undefined;
  if (sent === undefined) {
    return "function tools are taken only at reasoningEffort \"none\", and the model reasons by default: set `reasoningEffort: 'none'` (the agent then runs without reasoning) or `api: 'responses'` in the model spec";
  }
  return `function tools are taken only at reasoningEffort "none", not "${sent}": set \`api: 'responses'\` in the model spec, or \`reasoningEffort: 'none'\``;
}

/** The Chat Completions wire's plan-time check of a spec: only a spec whose calls go to Chat Completions, only tool requests. */
export function chatRefusal(spec: Pick<ModelSpec, 'api' | 'reasoningEffort'>, caps: ToolCaps, use: SpecUse): string | undefined {
  if (spec.api === 'responses' || !use.tools) return undefined;
  return chatToolsRefusal(caps, spec.reasoningEffort);
}

/** The effort a spec's Chat Completions requests go out with, used as `use` says (what `doctor` names). */
export function chatSentEffort(spec: Pick<ModelSpec, 'reasoningEffort'>, caps: ToolCaps, use: SpecUse): string | undefined {
  return use.tools ? chatToolsEffort(caps, spec.reasoningEffort) : spec.reasoningEffort;
}
