import { UserError } from '../core/errors.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import { isSimilarTo, type SimilarToSpec } from '../assertions/similar-to.js';
import { NO_EMBEDDING_MODEL } from './similar-to-service.js';
import type { JudgeSettings } from './settings.js';

/**
 * Every `similarTo` the selected cases' files hold has an embedding model (its own `model`, else the
 * config's `embeddingModel`), checked before the run. Whether a named model embeds is the schemas'
 * check (the eval file's `model`, the config's `embeddingModel`), so here only a missing one is left.
 */
export function checkEmbeddingModels(judging: Pick<JudgeSettings, 'embeddingModel'>, cases: readonly JudgeSubject[]): UserError[] {
  if (judging.embeddingModel !== undefined) return [];
  const errors: UserError[] = [];
  for (const c of cases) {
    const specs = [...c.assertions, ...(c.turns ?? []).flatMap((t) => t.assert ?? [])].filter((s): s is SimilarToSpec => isSimilarTo(s));
    if (specs.some((s) => s.model === undefined)) errors.push(new UserError(`similarTo: ${NO_EMBEDDING_MODEL}`, { file: c.file, line: c.line ?? undefined, field: 'model' }));
  }
  return errors;
}
