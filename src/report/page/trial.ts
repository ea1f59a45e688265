// One trial of an opened case: built only when the trial is opened. Error and usage first, then what
// was asked, the conversation (turns, or steps and reply) with its tool calls, then the assertions.
import { assertion } from './assertions';
import { add, el } from './dom';
import type { Fields } from './fields';
import { dur, usageLine } from './format';
import type { CaseResult, ToolCall, Trial } from './types';

export function trialRow(c: CaseResult, tr: Trial, fields: Fields): HTMLDetailsElement {
  const row = el('details', 'trial ' + tr.verdict);
  const sum = add(row, el('summary'));
  add(sum, el('span', 'verdict ' + tr.verdict, tr.verdict));
  add(sum, el('span', 'key', 'trial ' + (tr.index + 1)));
  add(sum, el('span', 'score', 'score ' + tr.score.toFixed(3) + ', ' + dur(tr.durationMs)));
  let built = false;
  row.addEventListener('toggle', () => {
    if (!row.open || built) return;
    built = true;
    const body = add(row, el('div', 'trial-body'));
    if (tr.error) fields.block(body, 'Error', tr.error, 'error');
    const tape = tr.toolTape;
    fields.facts(body, [
      ['Target usage', usageLine(tr.usage.target)],
      ['Judge usage', usageLine(tr.usage.judge)],
      ['Model', tr.trace.model],
      ['Stop reason', tr.trace.stopReason],
      ['Tool tape', tape ? tape.replayed + ' call' + (tape.replayed === 1 ? '' : 's') + ' replayed' + (tape.diverged ? '; ' + tape.diverged.message : '') : ''],
    ]);
    if (tr.trace.instructions) fields.block(body, 'Instructions', tr.trace.instructions, 'system');
    add(body, el('h3', null, 'Conversation'));
    asked(body, c, tr, fields);
    if (tr.turns) {
      tr.turns.forEach((turn, n) => {
        fields.block(body, 'User (turn ' + (n + 1) + ')', turn.input, 'user');
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
    add(body, el('h3', null, 'Assertions'));
    if (c.reference !== undefined) fields.block(body, 'Reference (expected answer)', c.reference, 'reference');
    tr.assertions.forEach((a) => assertion(body, a, fields));
  });
  return row;
}

const ROLES: Record<string, string> = { user: 'User', assistant: 'Assistant (history)', system: 'System (history)' };

// What the case asked, before the trial's steps: its history or input. A trial that ran turns
// shows each turn's own message, so only the history before the first one is shown here.
// Results written before cases kept what they asked have none of these fields.
function asked(parent: Node, c: CaseResult, tr: Trial, fields: Fields): void {
  const ranTurns = !!tr.turns && tr.turns.length > 0;
  let history = c.messages || [];
  if (ranTurns) {
    let last = -1;
    history.forEach((m, k) => {
      if (m.role === 'user') last = k;
    });
    history = history.filter((_, k) => k !== last);
  }
  history.forEach((m) => fields.block(parent, ROLES[m.role] || m.role, m.content, m.role === 'user' ? 'user' : 'history'));
  if (ranTurns || c.messages) return;
  const first = c.turns && c.turns[0];
  if (c.input !== undefined) fields.block(parent, 'User', c.input, 'user');
  else if (first) fields.block(parent, 'User (turn 1)', first.input, 'user');
}

function toolCall(parent: Node, call: ToolCall, fields: Fields): void {
  const box = add(parent, el('div', 'tool' + (call.isError ? ' error' : '')));
  add(box, el('div', 'label', 'Tool call: ' + call.name + (call.durationMs !== undefined ? ' (' + dur(call.durationMs) + ')' : '') + (call.isError ? ' \u2014 error' : '')));
  if (call.args !== undefined) fields.block(box, 'Arguments', call.args, 'args');
  if (call.result !== undefined) fields.block(box, 'Result', call.result, 'result');
}
