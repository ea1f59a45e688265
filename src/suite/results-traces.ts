import type { ChatTurn } from '../core/chat-turn.js';
import { caseKey } from '../core/matrix.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import type { CaseResult, Results, TrialResult } from '../core/results-schema.js';

/**
 * The traces of an agent-evals results file: one per finished trial (not interrupted, no error), id
 * `<case key>#<trial index>`, asked what its case asked (`input`, its `messages`, or for a trial of
 * several turns each turn's message and reply before the last), its run the trial's reply and trace,
 * its metadata the case's suite, id, tags, matrix values and target, its time the run's start.
 * `unfinished` counts the trials left out, `unasked` those of cases whose input the file does not keep
 * (results written before inputs were kept); `digests` says the tool calls hold digests of their
 * arguments and results, not the values (a run under `trace: safe`, the default).
 */
export function tracesFromResults(results: Results, shown: string): { traces: RecordedTrace[]; unfinished: number; unasked: number; digests: boolean } {
  const traces: RecordedTrace[] = [];
  let unfinished = 0;
  let unasked = 0;
  for (const c of results.cases) {
    for (const t of c.trials) {
      if (t.interrupted || t.error !== undefined) {
        unfinished++;
        continue;
      }
      const asked = askedOf(c, t);
      if (!asked) {
        unasked++;
        continue;
      }
      const key = caseKey(c);
      traces.push({
        id: `${key}#${t.index}`,
        startedAt: results.run.startedAt,
        ...asked,
        run: { ...t.trace, reply: t.reply },
        metadata: metadataOf(c),
        source: `${shown}#${key}/${t.index}`,
      });
    }
  }
  const digests = results.run.trace === 'safe' && traces.some((t) => t.run.steps?.some((step) => step.toolCalls?.length));
  return { traces, unfinished, unasked, digests };
}

function askedOf(c: CaseResult, t: TrialResult): { input: string } | { messages: ChatTurn[] } | undefined {
  const turns = t.turns ?? [];
  if (turns.length > 1) {
    const before = turns.slice(0, -1).flatMap((turn): ChatTurn[] => [
      { role: 'user', content: turn.input },
      { role: 'assistant', content: turn.reply },
    ]);
    return { messages: [...before, { role: 'user', content: turns[turns.length - 1]!.input }] };
  }
  if (c.messages?.length) return { messages: c.messages.map(({ role, content }) => ({ role, content })) };
  if (c.input !== undefined) return { input: c.input };
  return turns[0] ? { input: turns[0].input } : undefined;
}

function metadataOf(c: CaseResult): Record<string, unknown> {
  const target = c.variant?.name ?? c.matrix?.['target'];
  return { ...c.matrix, suite: c.suite, case: c.id, tags: c.tags, ...(target !== undefined ? { target } : {}) };
}
