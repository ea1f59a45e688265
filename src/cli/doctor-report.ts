import { specUseOf, type ConfigModels } from '../config/config-models.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { modelFacts, type ModelFacts } from '../runner/doctor/model-facts.js';
import type { ProbeFailure } from '../runner/doctor/probe-failure.js';
import { proxyFacts, type ProxyFacts } from '../providers/proxy.js';

/** One model of the report: its facts, who calls it, and (with `--live`) what its check found. */
export interface DoctorModel extends ModelFacts {
  usedBy: string[];
  /** An inference judge calls it: `--live` also asks it for a structured answer. */
  judge: boolean;
  /** How many function tools its tool requests offer (a model-agent target's, an agent judge's); 0: none. */
  tools: number;
  /** A `similarTo` embedding model: called (and checked live) with embeddings requests only. */
  embeddings: boolean;
  /** Where the key is read: the process environment, or an agent judge's own `options.env`. */
  keyFrom: 'environment' | 'agent judge options.env';
  /** The proxy its requests go through (shown without credentials), or none, and why. */
  proxy: ProxyFacts;
  /** `--live` only: empty when the model answered. */
  live?: ProbeFailure[];
}

/** What `agent-evals doctor` reports: every model the config's run would call, and who calls models unknown until they run. */
export interface DoctorReport {
  config: string | null;
  models: DoctorModel[];
  notes: string[];
  /** Key variables a model needs that are not set (names only). */
  missingKeys: string[];
}

/** `today` (YYYY-MM-DD) decides which announced shutdowns have passed. */
export function doctorReport(config: Pick<ResolvedConfig, 'file' | 'pricing' | 'proxy'>, found: ConfigModels, env: NodeJS.ProcessEnv, today: string): DoctorReport {
  const models = found.models.map((use) => {
    // The key is checked where the run reads it: an agent judge's calls read its own env when it gives one.
    const facts = modelFacts(use.spec, use.env ?? env, config.pricing, today, use.embeddings, specUseOf(use));
    // Its proxy variables too: the environment its calls are made with.
    const proxy = proxyFacts(
      facts.baseURL,
      [
        { setting: use.spec.proxy, from: 'the model spec' },
        { setting: config.proxy, from: 'the config' },
      ],
      use.env ?? env,
    );
    return {
      ...facts,
      proxy,
      usedBy: use.users,
      judge: use.judgeRef !== undefined,
      tools: use.tools?.length ?? 0,
      embeddings: use.embeddings ?? false,
      keyFrom: use.env ? ('agent judge options.env' as const) : ('environment' as const),
    };
  });
  const missingKeys = [...new Set(models.filter((m) => m.keyRequired && !m.keyPresent).map((m) => (m.keyFrom === 'environment' ? m.keyEnv : `${m.keyEnv} (in an agent judge's options.env)`)))];
  return { config: config.file, models, notes: found.notes, missingKeys };
}
