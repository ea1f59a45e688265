import { resolve } from 'node:path';
import { loadFakeFixtures } from '../judges/fake-judge.js';
import type { JudgeSettings } from '../judges/settings.js';
import type { PlannedCase } from '../suite/plan.js';
import { fakeFixturesOf, namedUserModel, userModelRef } from './user-model-ref.js';

/**
 * The fixtures files of the scripted `fake` user models the selected cases use, each read once
 * before any target runs: one that cannot be read, or an entry that is not valid, is a user error
 * (exit 2) naming the file and the entry, not a failure of every trial that asks it.
 */
export function checkUserFixtures(judging: Pick<JudgeSettings, 'judge' | 'judges' | 'rootDir'>, cases: readonly PlannedCase[]): void {
  const read = new Set<string>();
  for (const c of cases) {
    const written = c.simulatedUser ? userModelRef(c, judging)?.ref : undefined;
    const file = written === undefined ? undefined : fakeFixturesOf(namedUserModel(written, judging.judges));
    if (file === undefined || read.has(file)) continue;
    read.add(file);
    loadFakeFixtures(resolve(judging.rootDir, file));
  }
}
