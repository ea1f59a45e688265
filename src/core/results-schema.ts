import { z } from 'zod';
import { ShownPartSchema } from './shown-parts.js';
import { UsageSchema } from './usage.js';
import { AgentRunSchema, ToolCallSchema } from './agent-run.js';
import { MatrixValuesSchema, TargetVariantSchema } from './matrix.js';
import { ChatTurnSchema } from './chat-turn.js';
import { TracePolicySchema } from './judge-port.js';
import { SeveritySchema } from './severity.js';
import { PanelAggregateSchema } from './panel-aggregate.js';
import { McpListedToolsSchema } from './mcp-listed-tools.js';
import { RedteamSummarySchema } from './redteam-schema.js';

/** The results document. `schemas/results.schema.json` is generated from this. */

export const SCHEMA_VERSION = 1;

/** A failed gate fails the trial; a missed soft assertion lowers its score (`scored`). */
export { SeveritySchema, type Severity } from './severity.js';

const MeanStdSchema = z.object({ mean: z.number(), stddev: z.number() });

/** `user`: a simulated user's model (a case's `simulatedUser`), counted apart; absent when no case had one. */
export const RoleUsageSchema = z.object({ target: UsageSchema, judge: UsageSchema, user: UsageSchema.optional() });

export const AssertionStatusSchema = z.enum(['passed', 'failed', 'skipped', 'error']);

/** A short digest of a text the fingerprint compares but does not repeat (criteria, persona, a reference). */
const DigestSchema = z.string();

/**
 * Everything about a judged assertion's judging that can move its verdict while the agent stays the
 * same: who judged (provider, model, the capabilities it was called with, persona, an agent judge's
 * tools), by which criterion (the assertion's own texts as digests, scale, choices, dimensions,
 * threshold), and with which version of our judge prompt. `hash` covers all of it; a comparison
 * whose sides differ here says `judge changed` instead of blaming the agent.
 */
export const JudgeFingerprintSchema = z.object({
  /** 16 hex characters over every other field. */
  hash: z.string(),
  provider: z.string(),
  model: z.string(),
  /** What the calls were made with, as the model spec and the capability table resolve it (structured output, thinking, reasoning effort, temperature, token limit). */
  calledWith: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  /** Digest of the judge's persona (`system`); absent for the built-in persona. */
  persona: DigestSchema.optional(),
  /** The criterion as the assertion writes it; texts as digests. The case's own reference is case data, not here. */
  criterion: z.object({
    type: z.string(),
    criteria: DigestSchema.optional(),
    reference: DigestSchema.optional(),
    question: DigestSchema.optional(),
    source: DigestSchema.optional(),
    comparedTo: DigestSchema.optional(),
    /** A grounded criterion's context: the tool whose results it reads, or a digest of the text given. */
    context: z.union([z.object({ tool: z.string() }), DigestSchema]).optional(),
    scale: z.number().optional(),
    choices: z.record(z.string(), z.number()).optional(),
    dimensions: z.record(z.string(), z.number()).optional(),
    threshold: z.number(),
    prefer: z.string().optional(),
    positionSwap: z.boolean().optional(),
    /** The trace policy the judge saw the run under, and whether it saw the target's instructions. */
    trace: z.string(),
    targetInstructions: z.boolean(),
  }),
  /** Version of our judge prompt for this criterion kind: a hash of its wording, so it changes whenever the wording does. */
  prompt: z.string(),
  /** An agent judge's tools, by name. */
  tools: z.array(z.string()).optional(),
  /** A panel: its aggregate and each member's own fingerprint hash, in order (`provider` is `panel`). */
  panel: z.object({ aggregate: PanelAggregateSchema, members: z.array(z.string()) }).optional(),
});
export type JudgeFingerprint = z.infer<typeof JudgeFingerprintSchema>;

/**
 * A panel's judging of one assertion: each member's score and reason (or error) and its own verdict at
 * the assertion's threshold. When a member erred the assertion is a judge error; `rest` is then the
 * aggregate over the members that answered, for information only.
 */
export const PanelResultSchema = z.object({
  aggregate: PanelAggregateSchema,
  members: z.array(
    z.object({
      /** The member as the panel names it (`openai:gpt-5-mini`, a configured judge's name, `fake`). */
      judge: z.string(),
      status: z.enum(['passed', 'failed', 'error']),
      score: z.number().min(0).max(1).optional(),
      reason: z.string().optional(),
      error: z.string().optional(),
      cached: z.boolean().optional(),
      usage: UsageSchema,
    }),
  ),
  rest: z.object({ score: z.number().min(0).max(1), status: z.enum(['passed', 'failed']), members: z.number().int().nonnegative() }).optional(),
});
export type PanelResult = z.infer<typeof PanelResultSchema>;

/** Fleiss' κ of one panel's members over the run (src/stats/fleiss.ts): pass/fail per member per judged assertion. */
export const PanelAgreementSchema = z.object({
  judges: z.array(z.string()),
  /** Judged assertions every member answered (those with a member error are left out). */
  items: z.number().int().nonnegative(),
  /** Null when undefined: no items, or every member gave every item the same verdict. */
  kappa: z.number().nullable(),
});

export const AssertionResultSchema = z.object({
  name: z.string(),
  /** The assertion type (`contains`, `notCalledTool`, `closedQa`, …). */
  kind: z.string(),
  severity: SeveritySchema,
  status: AssertionStatusSchema,
  score: z.number().min(0).max(1),
  threshold: z.number().min(0).max(1),
  weight: z.number().positive(),
  message: z.string(),
  /** The scale a judged assertion's author wrote (`scale: 10`): reports show its score and threshold on it (`7/10`); score and threshold stay 0..1. */
  scale: z.literal(10).optional(),
  /** Why a `skipped` assertion was not asked: `gate-failed`, a gate of its trial failed first. */
  skipped: z.enum(['gate-failed']).optional(),
  /** 1-based turn of a multi-turn case this assertion checked; absent for the final reply. */
  turn: z.number().int().positive().optional(),
  reason: z.string().optional(),
  evidence: z.array(z.string()).optional(),
  dimensions: z.record(z.string(), z.object({ score: z.number(), min: z.number() })).optional(),
  /** Judge-specific detail: raw choice or text, position consistency, cache hit. */
  raw: z.string().optional(),
  choice: z.string().optional(),
  positionInconsistent: z.boolean().optional(),
  /** `--judge-noise K`: the judge asked K more times on this trial, cache off; each re-ask's status and score (graded like the first answer). */
  reasks: z.array(z.object({ status: AssertionStatusSchema, score: z.number().min(0).max(1) })).optional(),
  /** Who judged this assertion and by which criterion; also on a judged assertion not asked (gate failed, empty reply) when its judge is known. */
  judgeFingerprint: JudgeFingerprintSchema.optional(),
  /** Judged by a panel (`judge: { panel, aggregate }`): each member's own verdict at the threshold (see PanelResultSchema). */
  panel: PanelResultSchema.optional(),
  judge: z
    .object({
      provider: z.string(),
      model: z.string(),
      /** The persona (`system`) the judge ran with in place of the built-in one; absent for the built-in persona. */
      system: z.string().optional(),
      /** Answered through the provider's batch API (`--judge-batch`), priced at its batch rate; absent for a cached answer. */
      batch: z.boolean().optional(),
      usage: UsageSchema,
      cached: z.boolean().optional(),
      /** Tokens a cached answer would have used. */
      savedTokens: z.number().int().nonnegative().optional(),
      steps: z.number().int().nonnegative().optional(),
      toolCalls: z.number().int().nonnegative().optional(),
      /**
       * An agent judge's own run: its steps and tool calls, tool data under the assertion's trace
       * policy (digests under `safe`), so a reviewer can see which evidence it looked at.
       */
      run: AgentRunSchema.optional(),
    })
    .optional(),
});
export type AssertionResult = z.infer<typeof AssertionResultSchema>;

/** `interrupted`: Ctrl-C cut the trial off (its target or judges); it counts neither as passed nor failed. */
export const TrialVerdictSchema = z.enum(['passed', 'scored', 'failed', 'interrupted']);
export type TrialVerdict = z.infer<typeof TrialVerdictSchema>;

/** What the target did, without the reply (reported beside it). */
export const TraceSchema = AgentRunSchema.omit({ reply: true });

/** One user turn of a multi-turn trial: the message, the target's reply, its tool calls and usage. */
export const TurnResultSchema = z.object({
  input: z.string(),
  /** The message's content parts when a check's `t.send()` sent it as parts (a case's own turns keep theirs on the case). */
  parts: z.array(ShownPartSchema).optional(),
  reply: z.string(),
  toolCalls: z.array(ToolCallSchema),
  usage: UsageSchema,
  durationMs: z.number().nonnegative(),
});
export type TurnResult = z.infer<typeof TurnResultSchema>;

/**
 * `run --replay-tools`: how a trial's tool calls went against the tape. `replayed`: calls answered
 * with their recorded result (the tool not run); `diverged`: the first call that did not match the
 * tape (1-based `step` among the trial's tool calls; from there on its calls ran live). Tool names
 * only: arguments and results stay out of it.
 */
export const ToolTapeOutcomeSchema = z.object({
  replayed: z.number().int().nonnegative(),
  diverged: z
    .object({
      step: z.number().int().positive(),
      tool: z.string(),
      /** Other arguments than recorded, another tool than the recorded `expected`, or a call after the tape's last. */
      reason: z.enum(['arguments', 'tool', 'beyond']),
      expected: z.string().optional(),
      /** As reporters show it: `diverged from the tape at step 2: search called with other arguments than recorded`. */
      message: z.string(),
    })
    .optional(),
});
export type ToolTapeOutcome = z.infer<typeof ToolTapeOutcomeSchema>;
export type TapeDivergence = NonNullable<ToolTapeOutcome['diverged']>;

/**
 * A case's `toolResults`: `injected` counts the trial's calls answered with an entry's result (the
 * tool not run); `unused` lists the entries no call reached (the tool was called fewer times, or never).
 */
export const ToolResultsOutcomeSchema = z.object({
  injected: z.number().int().nonnegative(),
  unused: z.array(z.object({ tool: z.string(), call: z.number().int().positive() })).optional(),
});
export type ToolResultsOutcome = z.infer<typeof ToolResultsOutcomeSchema>;

export const TrialResultSchema = z.object({
  index: z.number().int().nonnegative(),
  verdict: TrialVerdictSchema,
  score: z.number().min(0).max(1),
  durationMs: z.number().nonnegative(),
  error: z.string().optional(),
  /** Set when Ctrl-C cut the trial off: what it had done is kept, its verdict is `interrupted`. */
  interrupted: z.boolean().optional(),
  reply: z.string(),
  usage: RoleUsageSchema,
  assertions: z.array(AssertionResultSchema),
  trace: TraceSchema,
  /** Every turn of a multi-turn trial, in order (absent for a single-turn trial). */
  turns: z.array(TurnResultSchema).optional(),
  /** Present when the run replayed tools from a tape (`--replay-tools`) and the trial made a tool call. */
  toolTape: ToolTapeOutcomeSchema.optional(),
  /** Present when the case has `toolResults`: the calls they answered and the entries no call used. */
  toolResults: ToolResultsOutcomeSchema.optional(),
  /**
   * A simulated-user trial: how its conversation ended (the user model said the goal was met, or gave up;
   * `maxTurns`; or, with `endOnFail`, a final assertion failed after a turn: `detector`).
   */
  simulatedUser: z.object({ stopped: z.enum(['goal-met', 'gave-up', 'max-turns', 'detector']) }).optional(),
});
export type TrialResult = z.infer<typeof TrialResultSchema>;

/**
 * A pass rate with its 95% Wilson score interval: `passed` of the `trials` that ran to a verdict
 * (interrupted and not-run trials are out; a `scored` trial is not a pass).
 */
export const PassRateSchema = z.object({
  passed: z.number().int().nonnegative(),
  trials: z.number().int().positive(),
  rate: z.number().min(0).max(1),
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
});
export type PassRate = z.infer<typeof PassRateSchema>;

export const CaseVerdictSchema = z.enum(['passed', 'failed', 'scored', 'skipped']);
export type CaseVerdict = z.infer<typeof CaseVerdictSchema>;

/**
 * A case's judged assertions and their judges. `key` is the assertion's place (`judge#1`, `turn 2 closedQa#1`:
 * type and ordinal among the judged assertions of its turn), so an edited criteria text still matches.
 */
export const CaseJudgeFingerprintSchema = z.object({
  hash: z.string(),
  assertions: z.array(z.object({ key: z.string(), name: z.string(), judge: JudgeFingerprintSchema })),
});
export type CaseJudgeFingerprint = z.infer<typeof CaseJudgeFingerprintSchema>;

/**
 * The tools a case's trials offered the model (a model-agent target), each by name with a digest of
 * its definition as the model saw it (name, description, input and output schema). `hash` covers every
 * distinct definition at every name over the trials, so a tool that differed between trials still
 * shows. What a baseline compares to tell `tools changed`; absent for targets that report no tools.
 */
export const CaseToolsFingerprintSchema = z.object({
  hash: z.string(),
  tools: z.record(z.string(), z.string()),
});
export type CaseToolsFingerprint = z.infer<typeof CaseToolsFingerprintSchema>;

export const CaseResultSchema = z.object({
  suite: z.string(),
  id: z.string(),
  file: z.string(),
  line: z.number().int().positive().nullable(),
  tags: z.array(z.string()),
  /** The matrix values this case ran with (`{ target: 'claude-support' }`); part of its key. */
  matrix: MatrixValuesSchema.optional(),
  /** A settings variant's name and what it ran with (`model`, `effort`, `instructions` of a matrix); the name is its target's in every report. */
  variant: TargetVariantSchema.optional(),
  /**
   * Hash of the case's input or turns, reference, assertions (a judged assertion's criterion and
   * judge left out: they are in `judgeFingerprint`) and a TS `check`'s source as written, its judge
   * calls included: a baseline tells an edited case from a regressed one.
   */
  fingerprint: z.string().optional(),
  /** The judges of its judged assertions: `hash` over each one's fingerprint, by its place among them; what a baseline compares to tell a judge change. */
  judgeFingerprint: CaseJudgeFingerprintSchema.optional(),
  /** The tool definitions its trials offered the model, by digest: what a baseline compares to tell `tools changed`. */
  toolsFingerprint: CaseToolsFingerprintSchema.optional(),
  /**
   * What the case asked, as its eval file or dataset row gave it: one of `input`, `messages` (a
   * history, when it is more than one user message) or `turns` (each turn's user message); and its
   * `reference`. The run's secret values are redacted; each text past 20,000 characters is cut with a
   * marker. Absent in results written before they were kept.
   */
  input: z.string().optional(),
  /** The input's content parts, when given as parts (`input` is then their text): images as thumbnails or digests, files by digest. */
  inputParts: z.array(ShownPartSchema).optional(),
  /** A user message given as parts keeps them as `inputParts` does (`content` is their text). */
  messages: z.array(ChatTurnSchema.extend({ parts: z.array(ShownPartSchema).optional() })).optional(),
  /** A turn given as parts keeps them as `inputParts` does (`input` is their text). */
  turns: z.array(z.object({ input: z.string(), parts: z.array(ShownPartSchema).optional() })).optional(),
  reference: z.string().optional(),
  /** A scored trace's case (`agent-evals score`): the recorded run it graded, its id, start (when recorded) and where it was read (`file:line`, `file#traceId`). */
  scoredTrace: z.object({ id: z.string(), startedAt: z.string().optional(), source: z.string() }).optional(),
  verdict: CaseVerdictSchema,
  passed: z.number().int().nonnegative(),
  required: z.number().int().nonnegative(),
  planned: z.number().int().nonnegative(),
  notRun: z.number().int().nonnegative(),
  /** Why trials did not run: early stop, bail, budget or interruption. */
  notRunReason: z.enum(['early-stop', 'bail', 'budget', 'interrupted']).optional(),
  /** Trials that failed because a judge erred (invalid answer, protocol error, provider error after retries), not because of the agent. */
  judgeErrors: z.number().int().nonnegative().optional(),
  score: MeanStdSchema,
  judgeScore: MeanStdSchema.nullable(),
  /** Pass rate of the trials that ran, with its interval; present from 2 such trials on. */
  passRate: PassRateSchema.optional(),
  /** Both passing trials and trials that failed or scored for the agent (judge errors aside). */
  flaky: z.boolean().optional(),
  /**
   * `passAt` / `passHat`: the unbiased pass@k or pass^k estimate over the `trials` that ran to a verdict
   * (absent below k of them); the case passed when it is at least `min`. Absent on `passRate` cases.
   */
  reducer: z
    .object({
      kind: z.enum(['passAt', 'passHat']),
      k: z.number().int().positive(),
      min: z.number().gt(0).max(1),
      trials: z.number().int().nonnegative(),
      estimate: z.number().min(0).max(1).optional(),
    })
    .optional(),
  /**
   * Adaptive trials (`repeat: { min, max }`): the trials that ran to a verdict (`used`) and why no more
   * ran: `decided` (the pass rate's interval cleared the threshold), `max`, or the run's stop. Absent on fixed repeats.
   */
  adaptive: z
    .object({
      min: z.number().int().positive(),
      max: z.number().int().positive(),
      used: z.number().int().nonnegative(),
      stoppedBy: z.enum(['decided', 'max', 'budget', 'bail', 'interrupted']),
    })
    .optional(),
  /**
   * `--judge-noise K`: per judged assertion re-asked on the sampled trials, the flip rate (re-asks whose
   * pass/fail differs from the first answer) and the score spread (mean within-trial standard deviation,
   * widest within-trial range); `withinNoise` when a trial of the case missed through an assertion that flipped
   * (its miss, or a regression against a baseline, is within the judge's noise).
   */
  judgeNoise: z
    .object({
      assertions: z.array(
        z.object({
          name: z.string(),
          turn: z.number().int().positive().optional(),
          trials: z.number().int().nonnegative(),
          reasks: z.number().int().nonnegative(),
          flips: z.number().int().nonnegative(),
          flipRate: z.number().min(0).max(1),
          scoreStddev: z.number().nonnegative(),
          scoreRange: z.number().min(0).max(1),
        }),
      ),
      withinNoise: z.boolean(),
    })
    .optional(),
  usage: RoleUsageSchema,
  trials: z.array(TrialResultSchema),
});
export type CaseResult = z.infer<typeof CaseResultSchema>;

export const CountersSchema = z.object({
  /** Judge calls not made because a gate of the trial failed. */
  judgeCallsSkippedByGates: z.number().int().nonnegative(),
  /** Judge calls answered from the cache (this run's or an earlier one's). */
  judgeCallsFromCache: z.number().int().nonnegative(),
  /** Tokens the cached judge calls would have used. */
  judgeTokensSavedByCache: z.number().int().nonnegative(),
  /** Trials not started because their case's verdict was already decided. */
  trialsNotRunEarlyStop: z.number().int().nonnegative(),
});
export type Counters = z.infer<typeof CountersSchema>;

/** The columns of a matrix comparison; `best` names those a row leads alone. */
export const MatrixColumnSchema = z.enum(['casesPassed', 'passRate', 'score', 'targetCost', 'judgeCost', 'latencyMean', 'latencyP95']);
export type MatrixColumn = z.infer<typeof MatrixColumnSchema>;

/** One matrix value's totals over a suite's cases. */
export const MatrixRowSchema = z.object({
  value: z.string(),
  cases: z.number().int().nonnegative(),
  casesPassed: z.number().int().nonnegative(),
  /** Passes of the trials that ran to a verdict; the interval is present from 2 trials on. */
  passRate: z.object({ passed: z.number().int().nonnegative(), trials: z.number().int().nonnegative(), rate: z.number().min(0).max(1).nullable() }),
  interval: z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) }).optional(),
  /** Mean trial score, null when no trial ran. */
  score: z.number().nullable(),
  /** Dollars; null when a price is unknown. */
  targetCostUsd: z.number().nonnegative().nullable(),
  judgeCostUsd: z.number().nonnegative().nullable(),
  /** Trial durations: mean and nearest-rank 95th percentile; null when no trial ran. */
  latencyMs: z.object({ mean: z.number().nonnegative(), p95: z.number().nonnegative() }).nullable(),
  best: z.array(MatrixColumnSchema),
});
export type MatrixRow = z.infer<typeof MatrixRowSchema>;

/** A suite run once per matrix value, side by side. */
export const MatrixTableSchema = z.object({
  suite: z.string(),
  dimension: z.string(),
  rows: z.array(MatrixRowSchema),
  /** Why a column marks no best: values run on unequal trial or case counts, or `no clear winner on pass rate (…)` when the leader's interval overlaps another value's. */
  notes: z.array(z.string()),
});
export type MatrixTable = z.infer<typeof MatrixTableSchema>;

/**
 * `--judge-batch`: a batch submitted (and billed) whose results the run could not read (its polls kept
 * failing): left at the provider, not cancelled, for `agent-evals rejudge <results> --batch <id>` to collect.
 */
export const UncollectedBatchSchema = z.object({
  id: z.string(),
  /** `provider:model` of the judge whose calls it holds. */
  spec: z.string(),
  reason: z.string(),
  /**
   * Each request of the batch: its `custom_id`, a digest of the request (model, prompt, answer schema,
   * sampling), which the re-judge's own request for the same judgment matches, and the name of the
   * answer's schema (an Anthropic forced tool's answer is read under it). Absent in files written before.
   */
  requests: z.array(z.object({ customId: z.string(), digest: z.string(), schema: z.string().optional() })).optional(),
});
export type UncollectedBatch = z.infer<typeof UncollectedBatchSchema>;

export const SummarySchema = z.object({
  cases: z.object({
    total: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    scored: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    /** Cases that are `flaky` (counted apart: each is also one of the verdicts above). */
    flaky: z.number().int().nonnegative().optional(),
  }),
  trials: z.object({
    planned: z.number().int().nonnegative(),
    run: z.number().int().nonnegative(),
    notRun: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    /** Trials cut off by Ctrl-C (part of `run`); present when there were any. */
    interrupted: z.number().int().nonnegative().optional(),
    /** Trials that failed because a judge erred, not the agent (part of `run`); present when there were any. */
    judgeErrors: z.number().int().nonnegative().optional(),
  }),
  /** Pass rate of every trial that ran, with its interval; present from 2 such trials on. */
  passRate: PassRateSchema.optional(),
  score: MeanStdSchema,
  usage: z.object({ target: UsageSchema, judge: UsageSchema, user: UsageSchema.optional(), total: UsageSchema }),
  counters: CountersSchema,
  /** One comparison table per suite run over a matrix (`matrix:`, `--matrix`). */
  matrix: z.array(MatrixTableSchema).optional(),
  /** Run-level gates and stops that failed the run (min score, budget, …), in words. */
  failures: z.array(z.string()),
  warnings: z.array(z.string()),
  /** Each tool called outside its case's `onlyTools` allowlist, with the cases that called it. Present when any. */
  toolsOutsideAllowlist: z.array(z.object({ tool: z.string(), cases: z.array(z.string()) })).optional(),
  /** `--judge-batch`: batches left uncollected at the provider (see UncollectedBatchSchema). Present when any. */
  uncollectedBatches: z.array(UncollectedBatchSchema).optional(),
  /** Agreement of each judge panel the run used (Fleiss' κ); present when any panel judged. */
  panels: z.array(PanelAgreementSchema).optional(),
  /**
   * Draft cases (`draft: true`: generated, not reviewed yet) the run's selection matched and skipped
   * (no `--include-drafts`); not part of `cases.total`. Present when any.
   */
  draftsSkipped: z.number().int().positive().optional(),
});
export type Summary = z.infer<typeof SummarySchema>;

/**
 * A run of one part of a plan (`--shard k/n`): what `agent-evals merge` needs to join the parts and to
 * refuse parts of different runs.
 */
export const ShardInfoSchema = z.object({
  index: z.number().int().positive(),
  total: z.number().int().positive(),
  /** Hash of the run's settings (targets, judging, gates): shards of one run agree on it. */
  config: z.string(),
  /** The whole selected plan, over every shard: its cases, trials and a hash of their sorted keys. */
  plan: z.object({ cases: z.number().int().nonnegative(), trials: z.number().int().nonnegative(), hash: z.string() }),
  /** Each of this file's cases' position in the whole plan, in order. */
  positions: z.array(z.number().int().nonnegative()),
  /** What the unsharded run's exit code depends on beyond its cases. */
  exit: z.object({ strict: z.boolean(), failOnFlaky: z.boolean(), minScore: z.number().optional(), minPassRate: z.number().optional() }),
});
export type ShardInfo = z.infer<typeof ShardInfoSchema>;

/** Why a recorded case was left out of a re-judge (`agent-evals rejudge`). */
export const CannotRejudgeReasonSchema = z.enum(['not-in-config', 'edited', 'no-fingerprint', 'raw-trace-gone']);

/**
 * The run a re-judged document came from: its trials were graded again by the judges of the current
 * config (or `--judge`) without calling any target. Cases that could not be re-judged are listed, not kept.
 */
export const RejudgedFromSchema = z.object({
  /** The recorded run's id and start. */
  runId: z.string(),
  startedAt: z.string(),
  /** The results file re-judged, as given. */
  file: z.string(),
  cannotRejudge: z.array(z.object({ key: z.string(), reason: CannotRejudgeReasonSchema, message: z.string() })),
});
export type RejudgedFrom = z.infer<typeof RejudgedFromSchema>;

/**
 * A scored batch (`agent-evals score`): recorded agent runs (traces) graded by a scoring file's or a
 * suite's assertions, no target called. Its cases are (scoring file, trace) pairs, not cases of an eval
 * suite: history shows it as scored and a comparison refuses it as a run of the agent.
 */
export const ScoredFromSchema = z.object({
  /** The trace files read, as given (a folder's files each). */
  files: z.array(z.string()),
  /** Traces kept after `--sample`, `--since` and `--until`. */
  traces: z.number().int().nonnegative(),
  /** Of those, traces no scoring file's `where` matched: counted, not scored. */
  unmatched: z.number().int().nonnegative(),
  sample: z.number().int().positive().optional(),
  seed: z.number().int().nonnegative().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  /** The scoring files (`*.score.yaml`) that graded them, or the eval file of `--suite`. */
  scoring: z.array(z.string()),
  /** `--suite <name>`: the eval suite whose suite-level assertions graded them. */
  suite: z.string().optional(),
});
export type ScoredFrom = z.infer<typeof ScoredFromSchema>;

export const RunInfoSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  gitSha: z.string().nullable(),
  argv: z.array(z.string()),
  config: z.string().nullable(),
  interrupted: z.boolean(),
  /** Present when the run was `--dry-run`: placeholder replies and the fake judge, no model called. */
  dryRun: z.literal(true).optional(),
  /**
   * The trace policy the document was written under: `safe`, its trials' tool arguments, results
   * and error text are digests (the raw ones stay in the run folder for a re-judge); `full`, raw.
   * Absent in files written before the policy reached the results.
   */
  trace: TracePolicySchema.optional(),
  /** Present when the run ran one shard of its plan (`--shard k/n`). */
  shard: ShardInfoSchema.optional(),
  /** Present when this document re-judged a recorded run (`agent-evals rejudge`): no target was called. */
  rejudgedFrom: RejudgedFromSchema.optional(),
  /** Present when this document scored recorded traces (`agent-evals score`): no target was called. */
  scoredFrom: ScoredFromSchema.optional(),
  /**
   * Present when `run --watch` re-ran part of the plan: the document still holds every case, those
   * not re-run with their results from the run that last ran them. `rerun`: the cases (keys) this run
   * ran; `carried`: how many cases kept an earlier result.
   */
  watch: z.object({ rerun: z.array(z.string()), carried: z.number().int().positive() }).optional(),
  /** `run --resume`: the id of the run folder whose recorded trials this run kept. */
  resumedFrom: z.string().optional(),
  /** `run --retry-errors`: the results file whose trials this run kept (its errors re-run), relative to the working directory. */
  retriedFrom: z.string().optional(),
  /** `run --last-failed`: the results file whose failed, scored or flaky cases this run ran, relative to the working directory. */
  lastFailedFrom: z.string().optional(),
  /**
   * The tools each MCP server listed for the run's model-agent targets, by server: what
   * `--replay-tools` offers the model again without starting the server.
   */
  mcpTools: McpListedToolsSchema.optional(),
});
/** Where a run's kept trials or chosen cases came from (`--resume`, `--retry-errors`, `--last-failed`). */
export type RunProvenance = Pick<RunInfo, 'resumedFrom' | 'retriedFrom' | 'lastFailedFrom'>;
export type RunInfo = z.infer<typeof RunInfoSchema>;

/** One side of a compared case: trials that ran (interrupted ones left out), passes, mean score. */
export const ComparedSideSchema = z.object({
  verdict: CaseVerdictSchema,
  passed: z.number().int().nonnegative(),
  run: z.number().int().nonnegative(),
  score: z.number(),
  judgeErrors: z.number().int().nonnegative().optional(),
  /** A `passAt` / `passHat` case's estimate (`pass@3`, 0.533): compared like the score when both sides have the same one. */
  estimate: z.object({ name: z.string(), value: z.number().min(0).max(1) }).optional(),
});
export type ComparedSide = z.infer<typeof ComparedSideSchema>;

/**
 * How a case moved from the baseline to this run (the rule is `classifyChange` in stats/compare-runs.ts).
 * `changed`: its fingerprint differs (an edited case is not compared); `regressed` also when an
 * assertion no judge graded fails more often than in the baseline, whatever its judges did;
 * `judge-changed`: the case is the same, its judged assertions were judged by another judge or
 * criterion, and every difference lies in those (not compared: the agent is not blamed for the judge);
 * `tools-changed`: the model was offered other tool definitions than in the baseline (a description or
 * schema edited, a tool added or removed) and the case is otherwise unchanged (compared as usual, so a
 * case that got worse with its tools is `regressed`, never this); `judge-errors` and
 * `not-run`: could not compare; `cannot-rejudge` (under `--rejudge`): the baseline's recording of the
 * case could not be re-judged, so it is listed, never counted.
 */
export const CaseChangeKindSchema = z.enum(['regressed', 'improved', 'unchanged', 'changed', 'judge-changed', 'tools-changed', 'new', 'removed', 'judge-errors', 'not-run', 'cannot-rejudge']);
export type CaseChangeKind = z.infer<typeof CaseChangeKindSchema>;

/**
 * Under `--rejudge`: the judge effect, how head's judge graded the baseline's recorded trials against how
 * they were graded when recorded (the same trials, only the judge differs). Shown, never counted.
 */
export const JudgeEffectSchema = z.object({
  /** `lower`: head's judge passes fewer of the recorded trials (or scores them lower by more than epsilon); `higher`; `none`. */
  direction: z.enum(['lower', 'higher', 'none']),
  /** The baseline as recorded. */
  recorded: ComparedSideSchema,
  /** The same trials re-judged by head's judge (also the case's `base`). */
  rejudged: ComparedSideSchema,
  /** One-sided Fisher exact p-value of the pass-rate move (`lower` and `higher`). */
  pValue: z.number().min(0).max(1).optional(),
  /** What moved, in words: `verdict passed → failed`, `score 0.95 → 0.40`. */
  reason: z.string().optional(),
  /** What differs between the recorded judging and the re-judge, in words (`judge openai:gpt-4.1-mini → openai:gpt-4.1-nano`); absent when the judge fingerprints match or one is missing. */
  judgeChanges: z.array(z.string()).optional(),
});
export type JudgeEffect = z.infer<typeof JudgeEffectSchema>;

/**
 * One assertion that made a case `regressed` on its own (see `failedAssertions`): its failures on each
 * side, over the trials that ran. `judged`: a judge graded its failures (and its judge is the same on
 * both sides); else no judge graded them (a deterministic assertion, or a judged one not asked: an
 * empty reply). Trials the target or the check ended (an `error`, no assertions) are one such entry,
 * named `target or check error`, of kind `error`.
 */
export const FailedAssertionSchema = z.object({
  name: z.string(),
  /** The assertion type (`contains`, `judge`, …). */
  kind: z.string(),
  turn: z.number().int().positive().optional(),
  judged: z.boolean(),
  base: z.object({ failed: z.number().int().nonnegative(), run: z.number().int().nonnegative() }),
  head: z.object({ failed: z.number().int().nonnegative(), run: z.number().int().nonnegative() }),
});
export type FailedAssertion = z.infer<typeof FailedAssertionSchema>;

export const CaseChangeSchema = z.object({
  /** `suite/id`. */
  key: z.string(),
  kind: CaseChangeKindSchema,
  base: ComparedSideSchema.optional(),
  head: ComparedSideSchema.optional(),
  /** One-sided p-value of the move (regressions and improvements): Fisher exact on the pass rates, or the rank-sum test on the trial scores when the pass rate held and only the score moved. */
  pValue: z.number().min(0).max(1).optional(),
  /** A regression that counts against `--max-regressions` (under `--regression-alpha`, only p < alpha). */
  counted: z.boolean().optional(),
  /** What moved, in words: `verdict passed → failed`, `score 0.95 → 0.40`. */
  reason: z.string().optional(),
  /**
   * `judge-changed`: what changed about the judging, each in words (`judge openai:gpt-4.1-mini → openai:gpt-4.1-nano`, `criteria edited`);
   * also on a regression a judge change did not excuse (its `failedAssertions` say why).
   */
  judgeChanges: z.array(z.string()).optional(),
  /**
   * The tools offered the model differ from the baseline's, each in words (`tool orders_lookup changed`,
   * `tool refund added`, `tool legacy removed`): on `tools-changed`, and on any other kind whose case also changed tools.
   */
  toolChanges: z.array(z.string()).optional(),
  /**
   * `regressed` because of these assertions, whatever happened to the case's judges: each fails in a
   * larger share of head's trials than of the baseline's, and either no judge graded its failures, or
   * its judge is the same on both sides. Absent when the case's own verdict and score made it regressed (the judges unchanged).
   */
  failedAssertions: z.array(FailedAssertionSchema).optional(),
  /**
   * Under `--rejudge`: the judge effect (recorded vs re-judged baseline). `base` is then the re-judged
   * baseline, so `kind`, `pValue` and `counted` are the agent effect (re-judged baseline vs head).
   */
  judgeEffect: JudgeEffectSchema.optional(),
});
export type CaseChange = z.infer<typeof CaseChangeSchema>;

/** A run compared with a baseline (`--baseline`, `agent-evals compare`). */
export const ComparisonSchema = z.object({
  /** The baseline file, as given. */
  baseline: z.string(),
  baseRun: z.object({ id: z.string(), gitSha: z.string().nullable(), startedAt: z.string() }).optional(),
  epsilon: z.number().nonnegative(),
  maxRegressions: z.number().int().nonnegative(),
  alpha: z.number().min(0).max(1).optional(),
  // Partial: a file written before a kind existed lacks its count (read as 0).
  counts: z.partialRecord(CaseChangeKindSchema, z.number().int().nonnegative()),
  /** Regressions counted against `maxRegressions`. */
  counted: z.number().int().nonnegative(),
  /** More counted regressions than `maxRegressions`: the run fails. */
  failed: z.boolean(),
  /** Every case but the unchanged ones (under `--rejudge`, but those whose judge effect is none), regressions first. */
  cases: z.array(CaseChangeSchema),
  warnings: z.array(z.string()),
  /**
   * Present under `--rejudge`: the baseline's recorded trials were re-judged by head's judge first, so
   * the counts are the agent effect's; the judge effect is per case (`judgeEffect`), never counted.
   */
  rejudge: z
    .object({
      /** Head's judges, as the re-judge used them (`openai:gpt-4.1-nano`). */
      judges: z.array(z.string()),
      /** Cases head's judge passed or scored lower / higher than the recorded verdicts. */
      lower: z.number().int().nonnegative(),
      higher: z.number().int().nonnegative(),
      /**
       * What re-judging the baseline spent on judges (calls, tokens, cost; cached answers cost nothing). Not
       * part of `summary.usage`, which is the run's own; absent in files written before it was kept.
       */
      usage: UsageSchema.optional(),
    })
    .optional(),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

export const ResultsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.object({ name: z.literal('agent-evals'), version: z.string() }),
  run: RunInfoSchema,
  summary: SummarySchema,
  /** Present when the run was compared with a baseline. */
  comparison: ComparisonSchema.optional(),
  /** Present when `agent-evals redteam` wrote the document: attack success per plugin and target. */
  redteam: RedteamSummarySchema.optional(),
  cases: z.array(CaseResultSchema),
});
export type Results = z.infer<typeof ResultsSchema>;
