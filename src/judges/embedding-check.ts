import { UserError } from '../core/errors.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import { isSimilarTo, type SimilarToSpec } from '../assertions/similar-to.js';
import { NO_EMBEDDING_MODEL } from './similar-to-service.js';
import type { JudgeSettings } from './settings.js';
import { dimensionsProblem } from '../providers/embedding-models.js';

/**
 * Every `similarTo` the selected cases' files hold has an embedding model (its own `model`, else the
 * config's `embeddingModel`), checked before the run. Whether a named model embeds is the schemas'
 * check (the eval file's `model`, the config's `embeddingModel`), so here only a missing one is left.
 */
export function checkEmbeddingModels(judging: Pick<JudgeSettings, 'embeddingModel'>, cases: readonly JudgeSubject[]): UserError[] {
  const errors: UserError[] = [];
  for (const c of cases) {
    const at = { file: c.file, line: c.line ?? undefined };
    const specs = similarToSpecs(c);
    const config = judging.embeddingModel;
    if (config === undefined) {
      if (specs.some((s) => s.model === undefined)) errors.push(new UserError(`similarTo: ${NO_EMBEDDING_MODEL}`, { ...at, field: 'model' }));
      continue;
    }
    // A `dimensions` the config's model cannot take (the assertion's own model was checked at load).
    const problem = specs.map((s) => (s.model === undefined && s.dimensions !== undefined ? dimensionsProblem(config, s.dimensions) : undefined)).find(Boolean);
    if (problem) errors.push(new UserError(`similarTo with the config's embeddingModel ${config}: ${problem}`, { ...at, field: 'dimensions' }));
  }
  return errors;
}

/** The `similarTo` assertions a case's file gives it, its turns' included. */
export function similarToSpecs(c: Pick<JudgeSubject, 'assertions' | 'turns'>): SimilarToSpec[] {
  return [...c.assertions, ...(c.turns ?? []).flatMap((t) => t.assert ?? [])].filter((s): s is SimilarToSpec => isSimilarTo(s));
}

/** A case's `similarTo` assertions that spend: each with the model it embeds with (its own, else the config's), `fake` left out. */
export function spendingSimilarTo(c: Pick<JudgeSubject, 'assertions' | 'turns'>, configModel: string | undefined): Array<{ spec: SimilarToSpec; model: string }> {
  return similarToSpecs(c).flatMap((spec) => {
    const model = spec.model ?? configModel;
    return model === undefined || model === 'fake' ? [] : [{ spec, model }];
  });
}

/** The embedding models the cases' `similarTo` assertions call: what a budget must price. */
export function embeddingModelsOf(cases: readonly Pick<JudgeSubject, 'assertions' | 'turns'>[], configModel: string | undefined): string[] {
  return [...new Set(cases.flatMap((c) => spendingSimilarTo(c, configModel).map((e) => e.model)))];
}
