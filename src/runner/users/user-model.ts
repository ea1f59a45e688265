import { resolve } from 'node:path';
import { errorMessage } from '../../core/errors.js';
import { loadFakeFixtures } from '../../judges/fake-judge.js';
import { createProvider } from '../../providers/create.js';
import type { ProviderLimiters } from '../../providers/adaptive-limit.js';
import type { Pricing } from '../../providers/run-usage.js';
import { splitJudgeSystem } from '../../judges/judge-system.js';
import { isFakeRef, isJudgeInstance, refKey, type JudgeRef } from '../../judges/resolve.js';
import type { JudgeSettings } from '../../judges/settings.js';
import type { PlannedCase } from '../../suite/plan.js';
import { fakeUserModel, providerUserModel, type UserModel } from './simulated-user.js';
import { fakeFixturesOf, namedUserModel, userModelRef } from './user-model-ref.js';
import { scriptedUserModel } from './scripted-user.js';
import type { UserFixtures } from './user-fixtures-check.js';

/**
 * The run's user models, one per reference. A case's `simulatedUser.model` names it, else the
 * case's judge, else the config's judge (a judge of the config's `judges` by name too; `--judge`
 * is for judges and does not change it). A `fake` with fixtures scripts the user of each case its
 * user entries match (scripted-user.ts), in a dry run too, from the fixtures the check before the
 * run read (`fixtures`; a file it did not read is read here); any other reference is the plain fake
 * in a dry run. A reference that cannot be built (a missing key, an agent judge, fixtures that
 * cannot be read) fails each trial that asks it, with the reason.
 */
export function userModels(o: {
  judging: Pick<JudgeSettings, 'judge' | 'judges' | 'dryRun' | 'rootDir'>;
  env: NodeJS.ProcessEnv;
  limiters: ProviderLimiters;
  pricing: Pricing;
  fixtures?: UserFixtures | undefined;
}): (c: PlannedCase) => UserModel {
  const made = new Map<string, (c: PlannedCase) => UserModel>();
  return (c) => {
    const written = userModelRef(c, o.judging)?.ref;
    if (written === undefined) return o.judging.dryRun ? fakeUserModel : failing('none', 'no user model: give "simulatedUser.model" or a judge');
    const ref = namedUserModel(written, o.judging.judges);
    const key = refKey(written);
    let model = made.get(key);
    if (!model) {
      model = build(ref, key);
      made.set(key, model);
    }
    return model(c);
  };

  function build(ref: JudgeRef | undefined, key: string): (c: PlannedCase) => UserModel {
    const fixtures = fakeFixturesOf(ref);
    if (fixtures !== undefined) {
      try {
        const loaded = o.fixtures?.get(fixtures) ?? loadFakeFixtures(resolve(o.judging.rootDir, fixtures));
        return (c) => scriptedUserModel(loaded, fixtures, c.key);
      } catch (err) {
        return always(failing(`fake(${fixtures})`, errorMessage(err)));
      }
    }
    if (o.judging.dryRun) return always(fakeUserModel);
    if (ref === undefined) return always(failing(key, `"${key}" names no judge of the config's \`judges\``));
    if (isJudgeInstance(ref)) return always(failing(key, 'a judge object (an agent judge) cannot play the user: give a model'));
    if (isFakeRef(ref)) return always(fakeUserModel);
    try {
      // A persona (`system`) is a judge's; the user model has its own prompt.
      return always(providerUserModel(createProvider(splitJudgeSystem(ref).model as never, o.env, { limiters: o.limiters }), o.pricing));
    } catch (err) {
      return always(failing(key, errorMessage(err)));
    }
  }
}

const always = (model: UserModel) => () => model;

/** A user model that cannot be built: each trial asking it fails with why. */
function failing(spec: string, why: string): UserModel {
  return { spec, next: () => Promise.reject(new Error(why)) };
}
