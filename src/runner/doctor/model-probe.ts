import type { SingleJudgeRef as JudgeRef } from '../../judges/resolve.js';
import type { JudgeRequest } from '../../core/judge-port.js';
import type { ProviderLimiters } from '../../providers/adaptive-limit.js';
import { createEmbedder, createProvider, providerSettings } from '../../providers/create.js';
import { apiKeyEnvOf, type ModelSpec } from '../../providers/model-spec.js';
import { specCapabilities } from '../../providers/wires.js';
import type { PriceOverrides } from '../../providers/pricing.js';
import type { ProviderTool } from '../../providers/types.js';
import { judgeInstances } from '../../judges/judge-instances.js';
import { silentPricing } from '../../providers/run-usage.js';
import { probeFailure, type ProbeFailure } from './probe-failure.js';

/** The one-word reply a live check asks for. */
export const PROBE_PROMPT = 'Reply with the single word OK.';

/** Output tokens a short reply may take from a model that does not think (a thinking model keeps its default: it needs room to think). */
const PROBE_MAX_TOKENS = 16;

/** A yes/no question the judge answers about the reply: the smallest judgment there is. */
const PROBE_JUDGMENT: JudgeRequest = {
  criterion: { kind: 'closedQa', question: 'Is the OUTPUT the word OK?' },
  output: 'OK',
  input: PROBE_PROMPT,
  run: { reply: 'OK' },
  tracePolicy: 'safe',
};

export interface ProbeOptions {
  env: NodeJS.ProcessEnv;
  limiters: ProviderLimiters;
  /** For a judge reference: the config's folder, named judges and price table, as a run builds its judges. */
  rootDir: string;
  judges: Record<string, JudgeRef>;
  pricing: PriceOverrides;
}

/**
 * One minimal live request to `spec` as the run sends it: a one-word reply, offering `tools` (a
 * model-agent target's or an agent judge's, `toolChoice: auto`) when a caller offers any, at the
 * spec's effort through its wire; and, when `judgeRef` calls it, one structured answer built exactly
 * as that judge's calls are. The second is not sent when the first failed (its error would only
 * repeat). Empty: the model accepted both.
 */
export async function probeModel(target: { spec: ModelSpec; judgeRef?: JudgeRef; embeddings?: true; tools?: ProviderTool[] }, opts: ProbeOptions): Promise<ProbeFailure[]> {
  const { spec } = target;
  const keyEnv = apiKeyEnvOf(spec);
  if (target.embeddings) return probeEmbeddings(spec, opts);
  try {
    const provider = createProvider(spec, opts.env, { limiters: opts.limiters });
    const { thinking } = specCapabilities(spec);
    const thinks = thinking === 'default-on' || thinking === 'always' || (spec.reasoningEffort !== undefined && spec.reasoningEffort !== 'none');
    const tools = target.tools !== undefined ? { tools: target.tools, toolChoice: 'auto' as const } : {};
    await provider.complete({ messages: [{ role: 'user', content: PROBE_PROMPT }], ...tools, ...(thinks ? {} : { maxTokens: PROBE_MAX_TOKENS }) });
  } catch (err) {
    return [probeFailure(target.tools !== undefined ? 'tool request' : 'reply', err, keyEnv)];
  }
  if (target.judgeRef === undefined) return [];
  try {
    const judges = judgeInstances({
      settings: { rootDir: opts.rootDir, judges: opts.judges, dryRun: false },
      cache: undefined,
      pricing: silentPricing(opts.pricing),
      env: opts.env,
      warn: () => {},
      limiters: opts.limiters,
    });
    await judges.judgeFor(target.judgeRef).judge(PROBE_JUDGMENT);
    return [];
  } catch (err) {
    return [probeFailure('structured answer', err, keyEnv)];
  }
}

/** An embedding model gets what `similarTo` sends it (judges/similar-to-service.ts): one embeddings request, of the probe's word. */
async function probeEmbeddings(spec: ModelSpec, opts: ProbeOptions): Promise<ProbeFailure[]> {
  try {
    const embedder = createEmbedder(providerSettings(spec, opts.env, { limiters: opts.limiters }));
    await embedder.embed('OK', new AbortController().signal, undefined);
    return [];
  } catch (err) {
    return [probeFailure('embedding', err, apiKeyEnvOf(spec))];
  }
}
