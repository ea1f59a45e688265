import { errorMessage } from '../core/errors.js';
import { createProvider } from '../providers/create.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import type { Pricing } from '../providers/run-usage.js';
import { isJudgeName } from '../judges/judge-ref-check.js';
import { splitJudgeSystem } from '../judges/judge-system.js';
import { isFakeRef, isJudgeInstance, refKey, type JudgeRef } from '../judges/resolve.js';
import type { JudgeSettings } from '../judges/settings.js';
import type { PlannedCase } from '../suite/plan.js';
import { fakeUserModel, providerUserModel, type UserModel } from './simulated-user.js';
import { userModelRef } from './user-model-ref.js';

/**
 * The run's user models, one per reference. A case's `simulatedUser.model` names it, else the
 * case's judge, else the config's judge (a judge of the config's `judges` by name too; `--judge`
 * is for judges and does not change it). A dry run uses the fake one. A reference that cannot be
 * built (a missing key, an agent judge) fails each trial that asks it, with the reason.
 */
export function userModels(o: { judging: Pick<JudgeSettings, 'judge' | 'judges' | 'dryRun'>; env: NodeJS.ProcessEnv; limiters: ProviderLimiters; pricing: Pricing }): (c: PlannedCase) => UserModel {
  const made = new Map<string, UserModel>();
  return (c) => {
    if (o.judging.dryRun) return fakeUserModel;
    const written = userModelRef(c, o.judging)?.ref;
    if (written === undefined) return failing('none', 'no user model: give "simulatedUser.model" or a judge');
    const ref: JudgeRef | undefined = isJudgeName(written) ? o.judging.judges[written] : written;
    const key = refKey(written);
    let model = made.get(key);
    if (!model) {
      model = build(ref, key);
      made.set(key, model);
    }
    return model;
  };

  function build(ref: JudgeRef | undefined, key: string): UserModel {
    if (ref === undefined) return failing(key, `"${key}" names no judge of the config's \`judges\``);
    if (isJudgeInstance(ref)) return failing(key, 'a judge object (an agent judge) cannot play the user: give a model');
    if (isFakeRef(ref)) return fakeUserModel;
    try {
      // A persona (`system`) is a judge's; the user model has its own prompt.
      return providerUserModel(createProvider(splitJudgeSystem(ref).model as never, o.env, { limiters: o.limiters }), o.pricing);
    } catch (err) {
      return failing(key, errorMessage(err));
    }
  }
}

/** A user model that cannot be built: each trial asking it fails with why. */
function failing(spec: string, why: string): UserModel {
  return { spec, next: () => Promise.reject(new Error(why)) };
}
