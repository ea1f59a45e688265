import { parseModelSpec, resolveEndpoint, type ModelSpecInput } from '../providers/model-spec.js';

/**
 * Everything about an inference judge, besides its prompt, that can change its answer: provider,
 * model, the endpoint it really calls (spec, else the provider's base-URL variable, else the
 * default), headers (a proxy may route on them) and sampling. Part of the judge cache key, so an
 * answer is never served for another endpoint or setting. Key, retries and timeouts change no answer.
 */
export function judgeIdentity(input: ModelSpecInput, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const spec = parseModelSpec(input);
  return {
    provider: spec.provider,
    model: spec.model,
    baseURL: resolveEndpoint(spec, env).replace(/\/+$/, ''),
    headers: spec.headers ?? {},
    maxTokens: spec.maxTokens ?? null,
  };
}
