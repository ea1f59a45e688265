/**
 * Which OpenAI API a model spec's calls go to. Some current models take function tools only on the
 * Responses API, others on Chat Completions only with reasoning off (OpenAI docs: deployment
 * checklist, GPT-6 Luna and GPT-6.1 Terra model pages, read 2026-12-01). The choice is per model
 * spec, not per request, so a target's tool loop, its judge calls and `doctor` all name one API.
 */
import type { ModelCapabilities } from '../../capabilities.js';

export type OpenAIApi = 'chat' | 'responses';

/**
 * The spec's own `api` wins. Otherwise: a model that takes no tools on Chat Completions goes to
 * Responses; a model that takes them there only at effort `none` goes to Responses unless the spec
 * sets `none` itself, or the model does not reason unless asked (so the agent under test reasons
 * as it does when shipped, never at a silent `none`); every other model stays on Chat Completions.
 */
export function chosenOpenAIApi(spec: { api?: OpenAIApi; reasoningEffort?: string }, caps: Pick<ModelCapabilities, 'chatTools' | 'thinking'>): OpenAIApi {
  if (spec.api) return spec.api;
  if (caps.chatTools === 'none') return 'responses';
  if (caps.chatTools !== 'reasoning-off') return 'chat';
  if (spec.reasoningEffort !== undefined) return spec.reasoningEffort === 'none' ? 'chat' : 'responses';
  return caps.thinking === 'off' || caps.thinking === 'optional' ? 'chat' : 'responses';
}
