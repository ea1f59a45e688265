import { emptyUsage } from '../../core/usage.js';
import type { ReplayedTrial } from './replay-target.js';
import type { UserModel } from '../users/index.js';

/**
 * A re-judge's simulated user: the recorded trial's user messages again, in order, at no cost, then
 * the recorded end (gave up, or the goal met; a `max-turns` end ends at `maxTurns` by itself). The
 * replay target answers each with the recorded reply, so the conversation is the recorded one.
 */
export function replayedUserModel(trial: ReplayedTrial | undefined): UserModel {
  const messages = (trial?.turns ?? []).map((t) => t.input);
  const goalMet = trial?.recorded.simulatedUser?.stopped !== 'gave-up';
  return {
    spec: 'replay',
    async next(_spec, conversation) {
      const sent = conversation.filter((t) => t.role === 'user').length;
      const message = messages[sent];
      return { usage: emptyUsage(), answer: message === undefined ? { done: true, goalMet, message: '' } : { done: false, goalMet: false, message } };
    },
  };
}
