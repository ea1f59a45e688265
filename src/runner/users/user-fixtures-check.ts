import { resolve } from 'node:path';
import { loadFakeFixtures, type FakeFixtures } from '../../judges/fake-judge.js';
import type { JudgeSettings } from '../../judges/settings.js';
import type { PlannedCase } from '../../suite/plan.js';
import { fakeFixturesOf, namedUserModel, userModelRef } from './user-model-ref.js';

/** The checked fixtures of the scripted user models, by their file as the config writes it. */
export type UserFixtures = ReadonlyMap<string, FakeFixtures>;

/**
 * The fixtures files of the scripted `fake` user models the selected cases use, each read once
 * before any target runs: one that cannot be read, or an entry that is not valid, is a user error
 * (exit 2) naming the file and the entry, not a failure of every trial that asks it. The run
 * scripts its users from what this read (user-model.ts): a file changed meanwhile is not read again.
 */
export function checkUserFixtures(judging: Pick<JudgeSettings, 'judge' | 'judges' | 'rootDir'>, cases: readonly PlannedCase[]): UserFixtures {
  const read = new Map<string, FakeFixtures>();
  for (const c of cases) {
    const written = c.simulatedUser ? userModelRef(c, judging)?.ref : undefined;
    const file = written === undefined ? undefined : fakeFixturesOf(namedUserModel(written, judging.judges));
    if (file === undefined || read.has(file)) continue;
    read.set(file, loadFakeFixtures(resolve(judging.rootDir, file)));
  }
  return read;
}
