import { JudgeError, ProviderConfigError, ProviderError, errorMessage } from '../../core/errors.js';

/** What a live check of a model found wrong: the provider's own words, and what to do about them. */
export interface ProbeFailure {
  /** Which request failed: the short reply (offering the callers' tools: `tool request`), the judge's structured answer, or an embedding model's embeddings request. */
  step: 'reply' | 'tool request' | 'structured answer' | 'embedding';
  message: string;
  hint?: string;
}

/** Words a provider uses for a model it does not have, when it answers 400 rather than 404. */
const UNKNOWN_MODEL = /\b(model)\b[^.]*\b(not found|does not exist|not exist|unknown|invalid|not supported)\b|\b(unknown|invalid) model\b/i;

/**
 * A failed live check, named for the fix: 401 a wrong or missing key in `keyEnv`, 404 (or a 400
 * about the model) an unknown model, another 400 a parameter the model does not take, the provider's
 * message kept as it is (the provider errors are already scrubbed of secrets).
 */
export function probeFailure(step: ProbeFailure['step'], err: unknown, keyEnv: string): ProbeFailure {
  const message = errorMessage(err);
  const hint = hintFor(err, message, keyEnv);
  return { step, message, ...(hint ? { hint } : {}) };
}

function hintFor(err: unknown, message: string, keyEnv: string): string | undefined {
  if (err instanceof ProviderConfigError) return `set ${keyEnv}`;
  if (err instanceof JudgeError) return 'the model does not give the structured answer the judges ask for: set `capabilities.structuredOutput` on its model spec if the table is wrong for it';
  if (!(err instanceof ProviderError)) return undefined;
  switch (err.kind) {
    case 'auth':
      return `wrong or missing key in ${keyEnv}`;
    case 'permission':
      return `the key in ${keyEnv} has no access to this model or endpoint`;
    case 'not_found':
      return 'unknown model: check the model id (and the base URL)';
    case 'bad_request':
      return UNKNOWN_MODEL.test(message)
        ? 'unknown model: check the model id (and the base URL)'
        : "unsupported parameter or value, as the provider's message says: set `capabilities` on the model spec if the table is wrong for this model";
    case 'connection':
      return 'the endpoint cannot be reached: check the base URL';
    case 'rate_limit':
      return 'rate limited: try again later';
    case 'server':
    case 'timeout':
      return 'the provider did not answer in time or failed: try again';
    default:
      return undefined;
  }
}
