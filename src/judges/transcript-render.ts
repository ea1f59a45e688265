import type { ChatTurn } from '../core/chat-turn.js';

/**
 * A conversation split by trust: the eval author's user (and system) turns stay in the trusted
 * transcript, in order; every assistant turn is replaced there by a numbered pointer and its text
 * goes to the untrusted block (`replies`), so nothing the target said can close a tag or give orders.
 * With `untrustedUsers` (a simulated user: a model wrote the user turns, having read the replies)
 * the user turns go there too (`userMessages`), each behind its own pointer.
 */
export function splitTranscript(turns: readonly ChatTurn[], untrustedUsers = false): { trusted: string; replies: string[]; userMessages: string[] } {
  const replies: string[] = [];
  const userMessages: string[] = [];
  const lines = turns.map((m) => {
    if (m.role === 'user' && untrustedUsers) {
      userMessages.push(m.content);
      return `user: [message ${userMessages.length}: in the untrusted block, "userMessages" item ${userMessages.length}]`;
    }
    if (m.role !== 'assistant') return `${m.role}: ${m.content}`;
    replies.push(m.content);
    return `assistant: [reply ${replies.length}: in the untrusted block, "replies" item ${replies.length}]`;
  });
  const simulated = untrustedUsers ? ' The user\'s messages were written by a simulated user (a model): each one is in the untrusted block under "userMessages", numbered from 1.' : '';
  const note = `The conversation in order. The agent's replies are not shown here: each one is in the untrusted block under "replies", numbered from 1.${simulated}`;
  return { trusted: [note, ...lines].join('\n'), replies, userMessages };
}
