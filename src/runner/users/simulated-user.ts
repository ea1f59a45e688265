import type { ChatTurn } from '../../core/chat-turn.js';
import type { TrialResult } from '../../core/results-schema.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { errorMessage } from '../../core/errors.js';
import type { Pricing } from '../../providers/run-usage.js';
import { askStructured } from '../../providers/structured-answer.js';
import type { Provider } from '../../providers/types.js';
import type { SimulatedUser } from '../../suite/simulated-user-schema.js';
import { USER_TURN_OUTPUT, UserTurnAnswerSchema, userModelPrompt, userTurnOf, type UserTurnAnswer } from './simulated-user-prompt.js';

/** One answer of the user model and what it cost; `problem` when the answer could not be used. */
export type UserModelReply = { usage: Usage } & ({ answer: UserTurnAnswer } | { problem: string });

/** The model that plays the user: asked before each turn with the goal and the conversation so far. */
export interface UserModel {
  /** `provider:model` (or `fake`), for errors. */
  readonly spec: string;
  next(spec: SimulatedUser, conversation: readonly ChatTurn[], signal: AbortSignal): Promise<UserModelReply>;
}

/**
 * How a simulated conversation ended: the user model said so (`goal-met`, `gave-up`), it ran out of
 * turns, or (`endOnFail`) a final assertion failed after a turn (`detector`).
 */
export type SimulatedUserStop = NonNullable<TrialResult['simulatedUser']>['stopped'];

/** What the user side of one trial spent, and how it ended (set once it did). */
export interface SimulatedUserTally {
  usage: Usage;
  stopped?: SimulatedUserStop;
}

/**
 * The `fake` user model (and every user model in a dry run): no call, zero tokens. It sends the
 * goal as its one message and then says the goal is met: a one-turn conversation, the same every time.
 */
export const fakeUserModel: UserModel = {
  spec: 'fake',
  async next(spec, conversation) {
    const sent = conversation.some((t) => t.role === 'user');
    return { usage: emptyUsage(), answer: sent ? { done: true, goalMet: true, message: '' } : { done: false, goalMet: false, message: spec.goal } };
  },
};

/** A user model over a provider: our prompt, the answer as structured output, its tokens priced like any call. */
export function providerUserModel(provider: Provider, pricing: Pricing): UserModel {
  return {
    spec: provider.spec,
    async next(spec, conversation, signal) {
      const { system, user } = userModelPrompt(spec, conversation);
      const answer = await askStructured(provider, { system, user, format: USER_TURN_OUTPUT, schema: UserTurnAnswerSchema, pricing, signal });
      return { usage: answer.usage, ...userTurnOf(answer.text, answer) };
    },
  };
}

/**
 * The user messages of a simulated conversation, one at a time: before each, the user model reads
 * the conversation so far (`transcript`, which the caller grows by sending each message). Ends when
 * the user model says done or after `maxTurns` messages; its spend and the way it ended go to `tally`.
 * A user model that fails, or answers what cannot be used, ends it with an error naming it.
 */
export async function* simulatedMessages(spec: SimulatedUser, model: UserModel, transcript: () => readonly ChatTurn[], signal: AbortSignal, tally: SimulatedUserTally): AsyncGenerator<string> {
  for (let sent = 0; sent < spec.maxTurns; sent++) {
    let reply: UserModelReply;
    try {
      reply = await model.next(spec, transcript(), signal);
    } catch (err) {
      throw new Error(`simulated user (${model.spec}): ${errorMessage(err)}`, { cause: err });
    }
    tally.usage = addUsage(tally.usage, reply.usage);
    if ('problem' in reply) throw new Error(`simulated user (${model.spec}): ${reply.problem}`);
    if (reply.answer.done) {
      if (sent === 0) throw new Error(`simulated user (${model.spec}): it ended the conversation before its first message`);
      tally.stopped = reply.answer.goalMet ? 'goal-met' : 'gave-up';
      return;
    }
    yield reply.answer.message;
  }
  tally.stopped = 'max-turns';
}
