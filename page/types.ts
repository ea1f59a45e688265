// The parts of the page's data block that the page reads (written by html-page.ts from the results
// document). Each is the results schema's own type (src/core/results-schema.ts, imported as types only:
// the bundle holds none of it), narrowed to the fields the page reads, and loosened where the page
// meets something else than the schema says: a long text the writer cut, a field the page tests for
// before use. A field the schema drops or renames no longer compiles here.
import type * as R from '../src/core/results-schema';
import type { BaselineCaseView, BaselineView as BaselineViewOf } from '../src/report/baseline-types';

/** A text field the writer cut (html-cut.ts): `{ <cut key>: n, chars, preview }`. */
export interface CutField {
  [key: string]: unknown;
  chars: number;
  preview: string;
}

/** A text value as the page meets it: a string, or a cut field in its place. */
export type Text = string | CutField;

/**
 * The fields K of the schema's type T as the page reads them, and the fields of Loose (each one of T's)
 * in the page's looser view of them: a text the writer may have cut, a value the page tests before use.
 */
type View<T, K extends keyof T, Loose extends { [P in keyof Loose]: P extends keyof T ? unknown : never } = Record<never, never>> = Pick<T, Exclude<K, keyof Loose>> & Loose;

export type Usage = Pick<R.TrialResult['usage']['target'], 'calls' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'costUsd'>;

/** Target, judge and (absent when no case had one) a simulated user's model. */
export type UsageSplit = { [K in keyof R.TrialResult['usage']]: Usage };

export type PassRate = R.PassRate;

/** One matrix value's totals over a suite's cases (matrix-model.ts, matrix-grid.ts, matrix-table.ts). */
export type MatrixRow = R.MatrixRow;

/** A suite run once per matrix value, side by side. */
export type MatrixTable = R.MatrixTable;

type PanelAgreement = NonNullable<R.Summary['panels']>[number];
type OutsideAllowlist = NonNullable<R.Summary['toolsOutsideAllowlist']>[number];

export type Summary = View<
  R.Summary,
  'cases' | 'trials' | 'passRate' | 'score' | 'matrix',
  {
    usage: UsageSplit;
    failures: Text[];
    /** The run's judge panels' agreement, shown by run-notes.ts. */
    panels?: View<PanelAgreement, 'items' | 'kappa', { judges: Text[] }>[];
    /** Tool names and case keys come from the agent and the eval files: shown as text only. */
    toolsOutsideAllowlist?: { [K in keyof OutsideAllowlist]: OutsideAllowlist[K] extends string ? Text : Text[] }[];
  }
>;

export type Counted = Pick<R.ComparedSide, 'passed' | 'run'>;

export type JudgeEffect = View<R.JudgeEffect, 'direction' | 'reason' | 'pValue' | 'judgeChanges', { recorded: Counted; rejudged: Counted }>;

/** One case's change against the baseline; a judge-changed case's changes in words (`judge a → b`, `criteria edited`), its tool changes (`tool lookup changed`); the assertions that regressed it whatever its judges. */
export type CaseChange = View<R.CaseChange, 'key' | 'kind' | 'reason' | 'pValue' | 'judgeChanges' | 'toolChanges' | 'failedAssertions', { base?: Counted; head?: Counted; judgeEffect?: JudgeEffect }>;

export type Comparison = View<R.Comparison, 'rejudge', { baseline: Text; counts: Record<string, number>; cases: CaseChange[] }>;

export type ToolCall = View<R.TurnResult['toolCalls'][number], 'name' | 'args' | 'result' | 'isError' | 'durationMs' | 'injected'>;

type SchemaStep = NonNullable<R.TrialResult['trace']['steps']>[number];
export type Step = View<SchemaStep, 'model', { text?: unknown; toolCalls?: ToolCall[] }>;

/** A turn; `parts` are what a check's `t.send()` sent (a case's own turns keep theirs on the case). */
export type Turn = View<R.TurnResult, 'durationMs', { input: unknown; parts?: unknown; reply: unknown; toolCalls: ToolCall[] }>;

type SchemaJudge = NonNullable<R.AssertionResult['judge']>;
type SchemaPanel = NonNullable<R.AssertionResult['panel']>;

export type Assertion = View<
  R.AssertionResult,
  'name' | 'kind' | 'severity' | 'status' | 'score' | 'threshold' | 'weight' | 'turn' | 'skipped' | 'positionInconsistent',
  {
    scale?: unknown;
    message?: Text;
    reason?: Text;
    choice?: Text;
    judge?: View<SchemaJudge, 'provider' | 'model' | 'cached' | 'savedTokens', { usage: Usage }>;
    evidence?: Text[];
    dimensions?: unknown;
    /** Judged by a panel: each member's score and reason, or its error. */
    panel?: View<SchemaPanel, 'aggregate', { members: View<SchemaPanel['members'][number], 'judge' | 'status' | 'score', { reason?: Text; error?: Text }>[] }>;
  }
>;

export type ToolTape = Pick<R.ToolTapeOutcome, 'replayed'> & { diverged?: Pick<R.TapeDivergence, 'message'> };

export type Trial = View<
  R.TrialResult,
  'index' | 'verdict' | 'score' | 'durationMs' | 'simulatedUser',
  {
    error?: unknown;
    usage: UsageSplit;
    trace: View<R.TrialResult['trace'], never, { model?: Text; stopReason?: Text; instructions?: unknown; steps?: Step[] }>;
    toolTape?: ToolTape;
    turns?: Turn[];
    reply?: unknown;
    assertions: Assertion[];
  }
>;

type SchemaMessage = NonNullable<R.CaseResult['messages']>[number];
export type Message = View<SchemaMessage, 'role', { content: unknown; parts?: unknown }>;

type SchemaNoise = NonNullable<R.CaseResult['judgeNoise']>;
export type JudgeNoise = View<SchemaNoise, 'withinNoise', { assertions: Pick<SchemaNoise['assertions'][number], 'name' | 'flips' | 'reasks' | 'scoreStddev' | 'scoreRange'>[] }>;

export type CaseResult = View<
  R.CaseResult,
  'suite' | 'id' | 'file' | 'tags' | 'verdict' | 'passed' | 'required' | 'passRate' | 'reducer' | 'score' | 'notRunReason' | 'adaptive' | 'variant' | 'scoredTrace',
  {
    /** The matrix values this case ran with (`{ target: 'claude-support' }`), read by whatever keys it holds. */
    matrix?: Record<string, string>;
    line?: number;
    trials: Trial[];
    usage: UsageSplit;
    notRun?: number;
    judgeNoise?: JudgeNoise;
    reference?: unknown;
    messages?: Message[];
    input?: unknown;
    inputParts?: unknown;
    turns?: { input: unknown; parts?: unknown }[];
  }
>;

/** `agent-evals redteam`'s section: plugin, target and case names come from files and are shown as text only. */
export type RedteamSummary = NonNullable<R.Results['redteam']>;

export type ResultsDoc = View<
  R.Results,
  'summary' | 'comparison' | 'cases' | 'redteam',
  { run: View<R.RunInfo, 'id' | 'startedAt' | 'durationMs', { gitSha?: string | null; interrupted?: boolean }>; summary: Summary; comparison?: Comparison; cases: CaseResult[] }
>;

// --- Before and after (before-after.ts) -------------------------------------------------------------
// The baseline's side of a compared run's moved cases, which the writer reads from the baseline file
// (src/report/baseline-view.ts) and puts beside the results in the data block as `baseline`.

/** One moved case as the baseline ran it: its first trials (the writer's pick) and how many it ran. */
export type BaselineCase = BaselineCaseView<Trial>;

export type BaselineView = BaselineViewOf<Trial>;

/** The JSON data block: the results, each case's key, the cut fields' folder and the cut key, and (a compared run with moved cases) the baseline's side. */
export interface PageData {
  results: ResultsDoc;
  keys: string[];
  files: string;
  cut: string;
  baseline?: BaselineView;
}
