import picomatch from 'picomatch';
import { emptyUsage } from '../../core/usage.js';
import type { FakeFixtures, FakeUserScript } from '../../judges/fake-judge.js';
import { fakeUserModel, type UserModel } from './simulated-user.js';

/**
 * The `fake` user model with fixtures: the user entry whose `case` glob matches the case key scripts
 * its user, offline and the same every time, at no cost. Before each turn: once the agent's latest
 * reply contains `goalMetWhen` (case-insensitive), the goal is met; else the next scripted message;
 * once they are all sent, the conversation ends as `then` says (goal met unless `gave-up`).
 * `maxTurns` still ends it first. A case no user entry matches gets the plain fake user.
 */
export function scriptedUserModel(fixtures: FakeFixtures, file: string, caseKey: string): UserModel {
  const script = fixtures.find((f): f is FakeUserScript => f.user !== undefined && (!f.case || picomatch(f.case)(caseKey)));
  if (!script) return fakeUserModel;
  const metWhen = script.goalMetWhen?.toLowerCase();
  return {
    spec: `fake(${file})`,
    async next(_spec, conversation) {
      const sent = conversation.filter((t) => t.role === 'user').length;
      const reply = conversation.findLast((t) => t.role === 'assistant')?.content;
      const done = (goalMet: boolean) => ({ usage: emptyUsage(), answer: { done: true, goalMet, message: '' } });
      if (sent > 0 && metWhen !== undefined && reply?.toLowerCase().includes(metWhen)) return done(true);
      const message = script.user[sent];
      if (message === undefined) return done(script.then !== 'gave-up');
      return { usage: emptyUsage(), answer: { done: false, goalMet: false, message } };
    },
  };
}
