import type { RecordedTrace } from '../core/recorded-trace.js';
import { stableHash } from '../core/stable-hash.js';
import { writtenEvalText } from './written-eval-yaml.js';
import type { Scoring } from './load-score-file.js';
import type { TsAssertionSpec } from './schema.js';

/** A trace that failed `agent-evals score`, and the scorings it failed. */
export interface FailedTrace {
  trace: RecordedTrace;
  scorings: readonly Scoring[];
}

/** One saved case: what the agent was asked, the assertions it failed on, and where the trace came from. */
export interface SavedFailureCase {
  id: string;
  input?: string;
  messages?: Array<{ role: string; content: string }>;
  judge?: Scoring['judge'];
  onlyTools?: string[];
  metadata: { trace: { id: string; startedAt?: string; source: string }; failed: string[]; recordedReply: string };
  assert: Array<Record<string, unknown>>;
}

/** How much of the failed reply a saved case keeps, for whoever reviews it. */
const REPLY_CHARS = 2_000;

/**
 * Each failed trace as an eval case (`score --save-failures`): its input (or messages), the assertions
 * of every scoring it failed (a TS predicate or a TS suite's `check`, which no YAML can hold, is left out
 * and counted; a trace that failed nothing else is not saved, its id in `unsaved`), and
 * no reference (a failed reply is no answer to compare with): the trace's id, time and source, the
 * scorings it failed and the reply as recorded go in `metadata`. Ids are the trace's id made a case id,
 * with a short hash when two would be the same.
 */
export function savedFailureCases(failed: readonly FailedTrace[]): { cases: SavedFailureCase[]; leftOut: number; unsaved: string[] } {
  const ids = new Set<string>();
  let leftOut = 0;
  const unsaved: string[] = [];
  const cases = failed.flatMap(({ trace, scorings }): SavedFailureCase[] => {
    const seen = new Set<string>();
    const assert: SavedFailureCase['assert'] = [];
    for (const spec of scorings.flatMap((s) => s.assertions)) {
      if (spec.type === 'custom') {
        leftOut++;
        continue;
      }
      const key = JSON.stringify(spec);
      if (seen.has(key)) continue;
      seen.add(key);
      assert.push(written(spec));
    }
    // A TS suite's `check(t)` (`score --suite`) is code too.
    leftOut += scorings.filter((s) => s.check).length;
    // Nothing but TS code to assert: a case without assertions does not load (and could only pass).
    if (assert.length === 0) {
      unsaved.push(trace.id);
      return [];
    }
    const slug = trace.id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'trace';
    let id = slug.slice(0, 64);
    if (ids.has(id)) id = `${id}-${stableHash({ id: trace.id, source: trace.source }, 8)}`;
    ids.add(id);
    const judge = scorings.find((s) => s.judge)?.judge;
    const onlyTools = scorings.find((s) => s.onlyTools)?.onlyTools;
    const reply = trace.run.reply;
    return [
      {
        id,
        ...(trace.messages && trace.messages.length > 1
          ? { messages: trace.messages.map((m) => ({ role: m.role, content: m.content })) }
          : { input: trace.input ?? trace.messages?.[0]?.content ?? '' }),
        ...(judge ? { judge } : {}),
        ...(onlyTools ? { onlyTools: [...onlyTools] } : {}),
        metadata: {
          trace: { id: trace.id, ...(trace.startedAt !== undefined ? { startedAt: trace.startedAt } : {}), source: trace.source },
          failed: scorings.map((s) => s.name),
          recordedReply: reply.length > REPLY_CHARS ? `${reply.slice(0, REPLY_CHARS)}…` : reply,
        },
        assert,
      },
    ];
  });
  return { cases, leftOut, unsaved };
}

/** An assertion as a YAML file writes it: a user assertion by its own name and options again. */
function written(spec: TsAssertionSpec): Record<string, unknown> {
  if (spec.type !== 'userAssertion') return { ...spec };
  const { type: _type, name, options, ...common } = spec as { type: string; name: string; options?: Record<string, unknown> };
  return { type: name, ...options, ...common };
}

/**
 * The eval file of saved failures, with comments saying where the cases came from and what to do
 * with them: each asks what a production user asked and asserts what the scoring files asserted.
 */
export async function savedFailuresText(cases: readonly SavedFailureCase[], file: { suite: string; target: string; traces: readonly string[]; scoring: readonly string[] }): Promise<string> {
  return writtenEvalText({
    suite: file.suite,
    target: file.target,
    cases,
    header: [
      `Saved by \`agent-evals score --save-failures\`: one case per recorded trace that failed`,
      `(traces: ${file.traces.join(', ')}; scored with ${file.scoring.join(', ')}).`,
      'Each case asks what the user asked and asserts what the scoring files asserted; no reference is',
      'given (the recorded reply failed, so it is no answer to compare with: it is in metadata.recordedReply).',
      'Run it against the agent: it fails until the agent is fixed, and then guards the fix.',
    ],
    targetComment: 'a target named in evals.config (`score --target` sets it)',
  });
}
