// The parts of the page's data block that the page reads (written by html-page.ts from the results
// document, src/core/results-schema.ts). The page may import nothing outside src/report/page/, so
// these are its own, looser view: every field it tests for before use is optional here.

/** A text field the writer cut (html-cut.ts): `{ <cut key>: n, chars, preview }`. */
export interface CutField {
  [key: string]: unknown;
  chars: number;
  preview: string;
}

/** A text value as the page meets it: a string, or a cut field in its place. */
export type Text = string | CutField;

export interface Usage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  costUsd: number | null;
}

export interface UsageSplit {
  target: Usage;
  judge: Usage;
  /** A simulated user's model (absent when no case had one). */
  user?: Usage;
}

export interface PassRate {
  rate: number;
  passed: number;
  trials: number;
  low: number;
  high: number;
}

export interface Summary {
  cases: { total: number; passed: number; failed: number; scored: number; skipped: number };
  trials: { passed: number; run: number; interrupted?: number };
  passRate?: PassRate;
  score: { mean: number; stddev: number };
  usage: UsageSplit;
  failures: Text[];
}

export interface Counted {
  passed: number;
  run: number;
}

export interface JudgeEffect {
  direction: string;
  recorded: Counted;
  rejudged: Counted;
  reason?: string;
  pValue?: number;
  judgeChanges?: string[];
}

export interface CaseChange {
  key: string;
  kind: string;
  reason?: string;
  pValue?: number;
  base?: Counted;
  head?: Counted;
  judgeEffect?: JudgeEffect;
}

export interface Comparison {
  baseline: Text;
  counts: Record<string, number>;
  cases: CaseChange[];
  rejudge?: { judges: string[]; lower: number; higher: number };
}

export interface ToolCall {
  name: string;
  args?: unknown;
  result?: unknown;
  isError?: boolean;
  durationMs?: number;
}

export interface Step {
  text?: unknown;
  model?: string;
  toolCalls?: ToolCall[];
}

export interface Turn {
  input: unknown;
  /** The parts a check's `t.send()` sent (a case's own turns keep theirs on the case). */
  parts?: unknown;
  reply: unknown;
  toolCalls: ToolCall[];
  durationMs: number;
}

export interface Assertion {
  name: string;
  kind: string;
  severity: string;
  status: string;
  score: number;
  threshold: number;
  weight: number;
  turn?: number;
  scale?: unknown;
  message?: Text;
  reason?: Text;
  choice?: Text;
  judge?: { provider: string; model: string; cached?: boolean; savedTokens?: number; usage: Usage };
  /** Why a skipped assertion was not asked (`gate-failed`). */
  skipped?: string;
  positionInconsistent?: boolean;
  evidence?: Text[];
  dimensions?: unknown;
  /** Judged by a panel: each member's score and reason, or its error. */
  panel?: { aggregate: string; members: Array<{ judge: string; status: string; score?: number; reason?: Text; error?: Text }> };
}

export interface ToolTape {
  replayed: number;
  diverged?: { message: string };
}

export interface Trial {
  index: number;
  verdict: string;
  score: number;
  durationMs: number;
  error?: unknown;
  usage: UsageSplit;
  trace: { model?: Text; stopReason?: Text; instructions?: unknown; steps?: Step[] };
  toolTape?: ToolTape;
  turns?: Turn[];
  reply?: unknown;
  assertions: Assertion[];
  simulatedUser?: { stopped: string };
}

export interface Message {
  role: string;
  content: unknown;
  parts?: unknown;
}

export interface JudgeNoise {
  withinNoise: boolean;
  assertions: { name: string; flips: number; reasks: number; scoreStddev: number; scoreRange: number }[];
}

export interface CaseResult {
  suite: string;
  file: string;
  line?: number;
  tags: string[];
  verdict: string;
  passed: number;
  required: number;
  passRate?: PassRate;
  reducer?: { kind: 'passAt' | 'passHat'; k: number; min: number; trials: number; estimate?: number };
  score: { mean: number };
  trials: Trial[];
  usage: UsageSplit;
  notRun?: number;
  notRunReason?: string;
  judgeNoise?: JudgeNoise;
  adaptive?: { used: number; min: number; max: number; stoppedBy: string };
  reference?: unknown;
  messages?: Message[];
  input?: unknown;
  inputParts?: unknown;
  turns?: { input: unknown; parts?: unknown }[];
}

export interface ResultsDoc {
  run: { id: string; startedAt: string; durationMs: number; gitSha?: string; interrupted?: boolean };
  summary: Summary;
  comparison?: Comparison;
  cases: CaseResult[];
}

/** The JSON data block: the results, each case's key, the cut fields' folder and the cut key. */
export interface PageData {
  results: ResultsDoc;
  keys: string[];
  files: string;
  cut: string;
}

// ---- Matrix grid (matrix-model.ts, matrix-grid.ts, matrix-table.ts) ----
// These interfaces merge with Summary and CaseResult above: the fields a matrix run adds
// (src/core/results-schema.ts: MatrixTableSchema, the case's `matrix`), declared here in their own
// block so the grid's reading of the data stays in one place.

/** One matrix value's totals over a suite's cases (MatrixRowSchema). */
export interface MatrixRow {
  value: string;
  cases: number;
  casesPassed: number;
  passRate: { passed: number; trials: number; rate: number | null };
  interval?: { low: number; high: number };
  score: number | null;
  targetCostUsd: number | null;
  judgeCostUsd: number | null;
  latencyMs: { mean: number; p95: number } | null;
  /** The columns this row leads alone. */
  best: string[];
}

/** A suite run once per matrix value, side by side (MatrixTableSchema). */
export interface MatrixTable {
  suite: string;
  dimension: string;
  rows: MatrixRow[];
  notes: string[];
}

export interface Summary {
  /** One comparison table per suite run over a matrix. */
  matrix?: MatrixTable[];
}

export interface CaseResult {
  suite: string;
  id: string;
  /** The matrix values this case ran with (`{ target: 'claude-support' }`). */
  matrix?: Record<string, string>;
}

// --- Before and after (before-after.ts) -------------------------------------------------------------
// The baseline's side of a compared run's moved cases, which the writer reads from the baseline file
// (src/report/baseline-view.ts) and puts beside the results in the data block as `baseline`.

/** One moved case as the baseline ran it: its first trials (the writer's pick) and how many it ran. */
export interface BaselineCase {
  key: string;
  trialsRun: number;
  trials: Trial[];
}

export interface BaselineView {
  /** The baseline as the comparison names it. */
  file: string;
  run?: { id: string; startedAt: string; gitSha?: string | null };
  cases: BaselineCase[];
  /** Moved cases past the writer's bound: not in `cases`. */
  omitted?: number;
  /** Why the baseline's side is not shown (the file is gone, holds another run, ...). */
  missing?: string;
}

// Merged into PageData above: the data block's `baseline`, present for a compared run with moved cases.
export interface PageData {
  baseline?: BaselineView;
}

// Merged into CaseChange above: a judge-changed case's changes in words (`judge a → b`, `criteria edited`).
export interface CaseChange {
  judgeChanges?: string[];
}

// Merged into Summary above: the run's judge panels' agreement (PanelAgreementSchema) and the tools
// called outside their allowlist (summary.toolsOutsideAllowlist), shown by run-notes.ts.
export interface Summary {
  panels?: Array<{ judges: Text[]; items: number; kappa: number | null }>;
  /** Tool names and case keys come from the agent and the eval files: shown as text only. */
  toolsOutsideAllowlist?: Array<{ tool: Text; cases: Text[] }>;
}
