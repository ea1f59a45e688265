import { spendingSimilarTo } from '../../judges/embedding-check.js';
import { judgeModelSpec } from '../../judges/judge-ref-check.js';
import type { JudgeSettings } from '../../judges/settings.js';
import { formatModelSpec } from '../../providers/model-spec.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { ModelCaller } from './retired-models.js';
import { userModelRef } from '../users/index.js';
import { pushAll } from '../../core/push-all.js';

/**
 * Every model a run of `cases` will call that is known before its first trial, with who calls it:
 * its model targets, the judges (`judgeUses`, from the judge service), the user models of simulated
 * users (unless `users` is false: a re-judge replays them) and the embedding models of `similarTo`.
 */
export function runModelCallers(o: {
  targets: ReadonlyArray<{ name: string; model?: string | undefined }>;
  judgeUses: readonly ModelCaller[];
  cases: readonly PlannedCase[];
  judging: Pick<JudgeSettings, 'judge' | 'judges' | 'embeddingModel' | 'judgeFromEnv'>;
  users: boolean;
}): ModelCaller[] {
  const callers: ModelCaller[] = o.targets.flatMap((t) => (t.model !== undefined ? [{ model: t.model, who: `target "${t.name}"` }] : []));
  pushAll(callers, o.judgeUses);
  for (const c of o.cases) {
    const chosen = o.users && c.simulatedUser ? userModelRef(c, o.judging) : undefined;
    const user = chosen && judgeModelSpec(chosen.ref, o.judging.judges);
    if (chosen && user) {
      const origin = chosen.origin === 'config judge' && o.judging.judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : chosen.origin;
      callers.push({ model: formatModelSpec(user.spec), who: `the user model (${origin}${user.name !== undefined ? ` "${user.name}"` : ''}) in ${c.file}` });
    }
    for (const { spec, model } of spendingSimilarTo(c, o.judging.embeddingModel)) {
      callers.push({ model, who: spec.model !== undefined ? `similarTo model in ${c.file}` : 'embeddingModel (config)' });
    }
  }
  return callers;
}
