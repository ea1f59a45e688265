import { JudgeError } from '../core/errors.js';
import type { JudgeScore } from '../core/judge-port.js';
import { aggregateScores, type PanelAggregate } from '../core/panel-aggregate.js';
import type { JudgeFingerprint } from '../core/results-schema.js';
import { stableHash } from '../core/stable-hash.js';
import { addUsage, emptyUsage } from '../core/usage.js';
import type { Judgment, PanelJudging, PanelMemberJudgment } from './judgment.js';
import { isPanelRef, type PanelRef } from './panel-spec.js';
import { isJudgeInstance, type SingleJudgeRef } from './resolve.js';

/** The judges a reference names: a panel's members, or the one judge. */
export function singleRefs(ref: SingleJudgeRef | PanelRef<SingleJudgeRef>): SingleJudgeRef[] {
  return isPanelRef(ref) ? ref.panel : [ref];
}

/** How the results name a member: as written (`openai:gpt-5-mini`, a configured judge's name, `fake`). */
export function memberLabel(ref: SingleJudgeRef): string {
  if (typeof ref === 'string') return ref;
  if (isJudgeInstance(ref)) return `${ref.provider}:${ref.model}`;
  const r = ref as { provider: string; model?: string; fixtures?: string };
  return r.fixtures !== undefined ? `${r.provider}(${r.fixtures})` : `${r.provider}:${r.model ?? ''}`;
}

/**
 * The panel's judgment from its members'. Every member scored: the aggregate of their scores (and of
 * each dimension the members gave), their usage summed. A member failed: the panel failed with that
 * member's error (the first, in panel order), everything the members spent, and the members kept so
 * the results can show the aggregate over the rest. Pass or fail is decided in judgedResult.
 */
export function panelJudgment(aggregate: PanelAggregate, members: PanelMemberJudgment[]): Judgment {
  const panel: PanelJudging = { aggregate, members };
  const by = { provider: 'panel', model: `${aggregate}(${members.map((m) => m.label).join(', ')})` };
  const fingerprint = panelFingerprint(aggregate, by.model, members);
  const extra = fingerprint ? { panel, fingerprint } : { panel };
  const usage = addUsage(emptyUsage(), ...members.map((m) => spentBy(m.judgment)));
  const failed = members.find((m) => m.judgment.kind !== 'scored');
  if (failed) {
    const j = failed.judgment;
    const error = j.kind === 'failed' ? j.error : new JudgeError('unavailable', `no judgment (${j.kind})`);
    return { kind: 'failed', error: new JudgeError(error.kind, `panel member ${failed.label}: ${error.message}`, { cause: error, spent: { usage } }), by, ...extra };
  }
  const scores = members.map((m) => (m.judgment as Extract<Judgment, { kind: 'scored' }>).score);
  const score: JudgeScore = {
    score: aggregateScores(
      scores.map((s) => s.score),
      aggregate,
    ),
    reason: `${aggregate} of ${members.length} judges`,
    evidence: [],
    ...dimensionsOf(scores, aggregate),
    usage,
    ...(scores.every((s) => s.cached) ? { cached: true, savedTokens: scores.reduce((n, s) => n + (s.savedTokens ?? 0), 0) } : {}),
  };
  return { kind: 'scored', score, by, ...extra };
}

/** Each dimension any member scored, aggregated over the members that scored it. */
function dimensionsOf(scores: JudgeScore[], aggregate: PanelAggregate): { dimensions?: Record<string, number> } {
  const names = [...new Set(scores.flatMap((s) => Object.keys(s.dimensions ?? {})))];
  if (names.length === 0) return {};
  return {
    dimensions: Object.fromEntries(
      names.map((d) => [
        d,
        aggregateScores(
          scores.flatMap((s) => (s.dimensions?.[d] !== undefined ? [s.dimensions[d]] : [])),
          aggregate,
        ),
      ]),
    ),
  };
}

/** What one member's judgment spent. */
export function spentBy(j: Judgment) {
  if (j.kind === 'scored') return j.score.usage;
  if (j.kind === 'failed') return j.error.spent?.usage ?? emptyUsage();
  return emptyUsage();
}

/**
 * A panel's fingerprint: its aggregate and each member's fingerprint (a member changing its model,
 * settings or persona changes the panel's hash: a comparison says the judge changed). Undefined when
 * a member's judge is not known.
 */
export function panelFingerprint(aggregate: PanelAggregate, model: string, members: ReadonlyArray<{ judgment: { fingerprint?: JudgeFingerprint } }>): JudgeFingerprint | undefined {
  const prints = members.map((m) => m.judgment.fingerprint);
  if (prints.some((p) => p === undefined)) return undefined;
  const first = prints[0]!;
  const fields: Omit<JudgeFingerprint, 'hash'> = { provider: 'panel', model, criterion: first.criterion, prompt: first.prompt, panel: { aggregate, members: prints.map((p) => p!.hash) } };
  return { hash: stableHash(fields), ...fields };
}
