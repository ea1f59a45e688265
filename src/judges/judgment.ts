import type { JudgeScore } from '../core/judge-port.js';
import type { JudgeError } from '../core/errors.js';
import type { PanelAggregate } from '../core/panel-aggregate.js';
import type { JudgeFingerprint } from '../core/results-schema.js';

/** The judge's provider and model as reported (an agent judge's run names the model that answered). */
export interface JudgeIdentity {
  provider: string;
  model: string;
  /** The judge's persona override, when it has one. */
  system?: string;
  /** The judge's calls went through the provider's batch API. */
  batch?: boolean;
}

/**
 * What judging one assertion came to, before any verdict: a score, a typed failure with what it
 * spent, no judge at all, or not asked because a gate failed. `judgedResult` turns it into the
 * assertion result; pass or fail is decided there, never by a judge. `fingerprint`: who judged (or
 * would have) and by which criterion, whenever the judge is known.
 */
export type Judgment = (
  | { kind: 'scored'; score: JudgeScore; by: JudgeIdentity; positionInconsistent?: boolean; /** `--judge-noise`: the same question asked again, cache off (judge-noise.ts). */ reasks?: Judgment[] }
  | { kind: 'failed'; error: JudgeError; by?: JudgeIdentity }
  | { kind: 'no-judge' }
  | { kind: 'skipped'; skipped: 'gate-failed' }
  | { kind: 'empty-reply' }
) & { fingerprint?: JudgeFingerprint; /** Judged by a panel: each member's own judgment (panel-judgment.ts). */ panel?: PanelJudging };

/** One member's judgment of a panel, under the name the panel gives it. */
export interface PanelMemberJudgment {
  label: string;
  judgment: Judgment;
}

/** What a panel's Judgment carries besides the aggregate: every member's own judgment, for the results. */
export interface PanelJudging {
  aggregate: PanelAggregate;
  members: PanelMemberJudgment[];
}
