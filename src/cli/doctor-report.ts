import type { ConfigModels } from '../config/config-models.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { modelFacts, type ModelFacts } from '../runner/model-facts.js';
import type { ProbeFailure } from '../runner/probe-failure.js';

/** One model of the report: its facts, who calls it, and (with `--live`) what its check found. */
export interface DoctorModel extends ModelFacts {
  usedBy: string[];
  /** An inference judge calls it: `--live` also asks it for a structured answer. */
  judge: boolean;
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
export function doctorReport(config: Pick<ResolvedConfig, 'file' | 'pricing'>, found: ConfigModels, env: NodeJS.ProcessEnv, today: string): DoctorReport {
  const models = found.models.map((use) => {
    const facts = modelFacts(use.spec, env, config.pricing, today);
    return { ...facts, usedBy: use.users, judge: use.judgeRef !== undefined };
  });
  const missingKeys = [...new Set(models.filter((m) => m.keyRequired && !m.keyPresent).map((m) => m.keyEnv))];
  return { config: config.file, models, notes: found.notes, missingKeys };
}
