// One trial of an opened case: built only when the trial is opened. What was asked and the reference
// first, then the conversation (turns, or steps and reply) with its tool calls, the error, the
// assertions, and the trial's usage and details last.
import { assertion } from './assertions';
import { inputParts } from './input-parts';
import { add, el } from './dom';
import type { Fields } from './fields';
import { dur, usageLine } from './format';
import { emptyTally, judgeUsageLine, tallyJudgments } from './judge-usage';
import type { CaseResult, ToolCall, Trial, Turn } from './types';

export function trialRow(c: CaseResult, tr: Trial, fields: Fields): HTMLDetailsElement {
  const row = el('details', 'trial ' + tr.verdict);
  const sum = add(row, el('summary'));
  add(sum, el('span', 'verdict ' + tr.verdict, tr.verdict));
  add(sum, el('span', 'key', 'trial ' + (tr.index + 1)));
  // Cut off by Ctrl-C: its score of 0 was never earned, so none is shown.
  add(sum, el('span', 'score', (tr.verdict === 'interrupted' ? 'not scored' : 'score ' + tr.score.toFixed(3)) + ', ' + dur(tr.durationMs)));
  let built = false;
  row.addEventListener('toggle', () => {
    if (!row.open || built) return;
    built = true;
    trialBody(add(row, el('div', 'trial-body')), c, tr, fields);
  });
  return row;
}

/**
 * A trial's body, in the order a reader asks: what was asked (the input or history, the first turn's
 * message) and the reference, then the conversation with its tool calls, the error, the assertions,
 * and last the run's details (usage, model, tool tape, the target's instructions).
 */
export function trialBody(body: HTMLElement, c: CaseResult, tr: Trial, fields: Fields): void {
  const input = asked(c, tr);
  if (c.reference !== undefined) input.push(['Reference (expected answer)', c.reference, 'reference']);
  if (input.length) add(body, el('h3', null, 'Input'));
  input.forEach((b) => {
    fields.block(body, b[0], b[1], b[2]);
    inputParts(body, b[3]);
  });
  add(body, el('h3', null, 'Conversation'));
  if (tr.turns) {
    tr.turns.forEach((turn, n) => {
      // Turn 1's message is the input, shown above.
      if (n > 0) fields.block(body, 'User (turn ' + (n + 1) + ')', turn.input, 'user');
      if (n > 0) inputParts(body, turn.parts || (c.turns && c.turns[n] && c.turns[n].parts));
      turn.toolCalls.forEach((call) => toolCall(body, call, fields));
      fields.block(body, 'Agent (turn ' + (n + 1) + ', ' + dur(turn.durationMs) + ')', turn.reply, 'agent');
    });
  } else {
    (tr.trace.steps || []).forEach((step, n) => {
      if (step.text) fields.block(body, 'Step ' + (n + 1) + (step.model ? ' (' + step.model + ')' : ''), step.text, 'step');
      (step.toolCalls || []).forEach((call) => toolCall(body, call, fields));
    });
    fields.block(body, 'Reply', tr.reply, 'agent');
  }
  if (tr.error) fields.block(body, 'Error', tr.error, 'error');
  add(body, el('h3', null, 'Assertions'));
  tr.assertions.forEach((a) => assertion(body, a, fields));
  add(body, el('h3', null, 'Details'));
  const tape = tr.toolTape;
  fields.facts(body, [
    ['Target usage', usageLine(tr.usage.target)],
    ['Judge usage', judgeUsageLine(tr.usage.judge, tallyJudgments(emptyTally(), tr.assertions))],
    ['Simulated user usage', tr.usage.user ? usageLine(tr.usage.user) : ''],
    ['Simulated user', tr.simulatedUser ? 'stopped: ' + tr.simulatedUser.stopped : ''],
    ['Model', tr.trace.model],
    ['Stop reason', tr.trace.stopReason],
    ['Tool tape', tape ? tape.replayed + ' call' + (tape.replayed === 1 ? '' : 's') + ' replayed' + (tape.diverged ? '; ' + tape.diverged.message : '') : ''],
  ]);
  if (tr.trace.instructions) fields.block(body, 'Instructions', tr.trace.instructions, 'system');
}

const ROLES: Record<string, string> = { user: 'User', assistant: 'Assistant (history)', system: 'System (history)' };

// What the case asked, first in the trial: its history or input. A trial that ran turns shows the
// history before its first turn, then the first turn's message (later turns' come in the conversation).
// Results written before cases kept what they asked have none of these fields. The fourth item is
// that message's content parts (images as thumbnails, files by digest), shown under it.
function asked(c: CaseResult, tr: Trial): [string, unknown, string, unknown?][] {
  const out: [string, unknown, string, unknown?][] = [];
  const turns = tr.turns || [];
  const ranTurns = turns.length > 0;
  let history = c.messages || [];
  let firstParts: unknown = c.turns && c.turns[0] ? c.turns[0].parts : c.inputParts;
  if (ranTurns) {
    let last = -1;
    history.forEach((m, k) => {
      if (m.role === 'user') last = k;
    });
    if (last >= 0) firstParts = history[last]!.parts;
    history = history.filter((_, k) => k !== last);
  }
  history.forEach((m) => out.push([ROLES[m.role] || m.role, m.content, m.role === 'user' ? 'user' : 'history', m.parts]));
  const first = c.turns && c.turns[0];
  if (ranTurns) out.push(['User (turn 1)', (turns[0] as Turn).input, 'user', firstParts]);
  if (ranTurns || c.messages) return out;
  if (c.input !== undefined) out.push(['User', c.input, 'user', c.inputParts]);
  else if (first) out.push(['User (turn 1)', first.input, 'user', first.parts]);
  return out;
}

function toolCall(parent: Node, call: ToolCall, fields: Fields): void {
  const box = add(parent, el('div', 'tool' + (call.isError ? ' error' : '')));
  // An injected result is the case's text (its toolResults), not the tool's: the reader must not take it for the tool's answer.
  const injected = call.injected ? ' \u2014 result served by the case (toolResults), the tool did not run' : '';
  add(box, el('div', 'label', 'Tool call: ' + call.name + (call.durationMs !== undefined ? ' (' + dur(call.durationMs) + ')' : '') + (call.isError ? ' \u2014 error' : '') + injected));
  if (call.args !== undefined) fields.block(box, 'Arguments', call.args, 'args');
  if (call.result !== undefined) fields.block(box, 'Result', call.result, 'result');
}
