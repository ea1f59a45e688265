import { parsedValue, str } from './chat-messages.js';
import type { ExportedSpan } from './otlp-json.js';
import { outermostFirst } from './otel-spans.js';

/**
 * Attributes a user sets on a run, one key each below a prefix: AI SDK 6's `experimental_telemetry.metadata`,
 * AI SDK 7's runtime context (which replaced it; `@ai-sdk/otel` writes the keys a call includes, a
 * nested object's as `key.inner`), OpenLLMetry's association properties.
 */
const USER_PREFIXES = ['ai.telemetry.metadata.', 'ai.settings.context.', 'traceloop.association.properties.'];
/** The agent's name: OpenTelemetry GenAI's, the AI SDK's `functionId`, OpenInference's, OpenLLMetry's workflow. */
const AGENT_KEYS = ['gen_ai.agent.name', 'ai.telemetry.functionId', 'agent.name', 'traceloop.workflow.name'];
/** Ids the conventions record a run under, kept by their own names. */
const ID_KEYS = ['gen_ai.conversation.id', 'gen_ai.agent.id', 'session.id', 'user.id'];

/**
 * What a recorded run's spans say about it beyond the run itself, as one flat record (what a scoring
 * file's `where:` matches): the keys a user attached (AI SDK `ai.telemetry.metadata.<key>` and
 * `ai.settings.context.<key>`, OpenLLMetry `traceloop.association.properties.<key>`, OpenInference's `metadata` object, each as
 * `<key>`; OpenInference `tag.tags` as `tags`), `agent` (the agent's name), the conversation, session
 * and user ids, then the resource's attributes (`service.name`, ...). A key set twice keeps its
 * first value: a user's key over a convention's, an enclosing span's over an inner span's.
 */
export function runMetadata(spans: readonly ExportedSpan[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Keys are file data: one named `__proto__` is an own property like any other.
  const set = (key: string, value: unknown) => {
    if (value !== undefined && key !== '' && !Object.hasOwn(out, key)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  };
  const ordered = outermostFirst(spans);
  for (const s of ordered) {
    const a = s.attributes;
    for (const [key, value] of Object.entries(a)) {
      const prefix = USER_PREFIXES.find((p) => key.startsWith(p));
      if (prefix) set(key.slice(prefix.length), value);
    }
    const attached = parsedValue(a['metadata']);
    if (typeof attached === 'object' && attached !== null && !Array.isArray(attached)) for (const [key, value] of Object.entries(attached)) set(key, value);
    if (Array.isArray(a['tag.tags'])) set('tags', a['tag.tags']);
  }
  for (const s of ordered) set('agent', AGENT_KEYS.map((k) => str(s.attributes[k])).find(Boolean));
  for (const s of ordered) for (const key of ID_KEYS) set(key, s.attributes[key]);
  for (const s of ordered) for (const [key, value] of Object.entries(s.resource)) set(key, value);
  return out;
}
