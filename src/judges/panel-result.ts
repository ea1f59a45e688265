import { aggregateScores } from '../core/panel-aggregate.js';
import type { AssertionResult, PanelResult } from '../core/results-schema.js';
import { formatScore } from '../core/score-text.js';
import type { JudgeScore } from '../core/judge-port.js';
import type { PanelJudging } from './judgment.js';
import { spentBy } from './panel-judgment.js';

/** A member's own verdict, by the assertion's rule: score at the threshold and every dimension at its minimum. */
function memberPasses(score: JudgeScore, threshold: number, mins: Record<string, number>): boolean {
  return score.score >= threshold && Object.entries(mins).every(([d, min]) => (score.dimensions?.[d] ?? 0) >= min);
}

/**
 * The results' record of a panel's judging: each member's score, reason and verdict at the threshold,
 * or its error. When a member erred, `rest` is the aggregate over the members that answered
 * (information only: the assertion is a judge error all the same).
 */
export function panelResult(panel: PanelJudging, threshold: number, mins: Record<string, number>): PanelResult {
  const members = panel.members.map(({ label, judgment: j }): PanelResult['members'][number] => {
    const usage = spentBy(j);
    if (j.kind === 'scored') {
      const s = j.score;
      return { judge: label, status: memberPasses(s, threshold, mins) ? 'passed' : 'failed', score: s.score, reason: s.reason, ...(s.cached ? { cached: true } : {}), usage };
    }
    return { judge: label, status: 'error', error: j.kind === 'failed' ? j.error.message : j.kind, usage };
  });
  const answered = members.filter((m) => m.score !== undefined).map((m) => m.score!);
  const erred = answered.length < members.length;
  if (!erred || answered.length === 0) return { aggregate: panel.aggregate, members };
  const score = aggregateScores(answered, panel.aggregate);
  return { aggregate: panel.aggregate, members, rest: { score, status: score >= threshold ? 'passed' : 'failed', members: answered.length } };
}

/** The words a judged assertion's message adds for its panel: how many members passed, or the aggregate over the rest. */
export function panelWords(panel: PanelResult, scale: 10 | undefined): string {
  const passed = panel.members.filter((m) => m.status === 'passed').length;
  if (!panel.rest) return ` — panel ${panel.aggregate}: ${passed} of ${panel.members.length} judges pass`;
  return ` — the ${panel.rest.members} other judges' ${panel.aggregate}: ${formatScore(panel.rest.score, scale)} (${panel.rest.status}; not the verdict)`;
}

/** Adds the panel record to a judged assertion's result, and its words to the message. */
export function withPanelResult(result: AssertionResult, panel: PanelJudging, mins: Record<string, number>): void {
  const record = panelResult(panel, result.threshold, mins);
  result.message += panelWords(record, result.scale);
  result.panel = record;
}
