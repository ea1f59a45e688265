import type { ChatTurn } from '../core/chat-turn.js';

/**
 * A conversation split by trust: the eval author's user (and system) turns stay in the trusted
 * transcript, in order; every assistant turn is replaced there by a numbered pointer and its text
 * goes to the untrusted block (`replies`), so nothing the target said can close a tag or give orders.
 */
export function splitTranscript(turns: readonly ChatTurn[]): { trusted: string; replies: string[] } {
  const replies: string[] = [];
  const lines = turns.map((m) => {
    if (m.role !== 'assistant') return `${m.role}: ${m.content}`;
    replies.push(m.content);
    return `assistant: [reply ${replies.length}: in the untrusted block, "replies" item ${replies.length}]`;
  });
  const note = 'The conversation in order. The agent\'s replies are not shown here: each one is in the untrusted block under "replies", numbered from 1.';
  return { trusted: [note, ...lines].join('\n'), replies };
}
