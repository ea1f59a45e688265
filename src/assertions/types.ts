import { z } from 'zod';
import type { AgentRun } from '../core/agent-run.js';
import type { TracePolicy } from '../core/judge-port.js';
import type { Usage } from '../core/usage.js';
import { SeveritySchema, type Severity } from '../core/severity.js';

/** Fields every assertion accepts, in YAML and in TypeScript. */
export const assertionCommonFields = {
  severity: SeveritySchema.optional(),
  weight: z.number().positive().optional(),
  threshold: z.number().min(0).max(1).optional(),
  label: z.string().min(1).optional(),
};

/**
 * What a deterministic check reads: the trial's reply and run, its timing and target usage. User
 * code (a custom or user assertion) gets it as a frozen copy (`contextView`).
 */
export interface AssertionContext {
  /** The text under test: the final reply, or one turn's reply in a multi-turn case. */
  reply: string;
  run: AgentRun;
  /**
   * In a conversation of more than one turn, when the whole trial is checked: each turn's run in order
   * (its reply and its steps). Absent for a single turn and for one turn's assertions: `run` is then all there is.
   */
  turns?: readonly AgentRun[];
  durationMs: number;
  /** Target usage of the trial, priced (costUsd null when the model has no known price). */
  usage: Usage;
  /**
   * The target under test and whether it recorded a trajectory at all (`recordedTrajectory`): when
   * it did not, the trajectory assertions fail saying so rather than counting 0 calls. Set by the runner.
   */
  target?: { name: string; recordedTrajectory: boolean; untracedHint?: string };
  /**
   * The run's trace policy. A message goes as written into every shareable artifact, so under
   * `safe` (and when absent) it shows the agent's tool arguments only as their digest's shape. Set by the runner.
   */
  tracePolicy?: TracePolicy;
}

/**
 * A check's outcome. Pass is decided by the caller (`score >= threshold`), so a check only
 * measures. `message` says what was expected and what happened, in both cases.
 */
export interface CheckOutcome {
  score: number;
  message: string;
  reason?: string;
  /** Short observations behind the outcome (an allowlist's tools called outside it). */
  evidence?: string[];
}

/**
 * One deterministic assertion type: its YAML/TS fields as a zod object (the `type` literal
 * included), its default severity, and a pure check.
 */
export interface AssertionDefinition<S extends { type: string } = { type: string } & Record<string, unknown>> {
  type: S['type'];
  schema: z.ZodType<S>;
  defaultSeverity: Severity;
  /**
   * A failure no later turn of a conversation can undo (a forbidden call made, a value leaked): such an
   * assertion is checked after each turn of a simulated user with `endOnFail`, and its failure ends it.
   */
  final?: boolean;
  check(spec: S, ctx: AssertionContext): CheckOutcome;
}
