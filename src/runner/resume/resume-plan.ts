import { z } from 'zod';
import { caseFingerprint } from '../../suite/fingerprint.js';
import type { PlannedCase } from '../../suite/plan.js';

/**
 * What a run folder records of its plan when the run begins (`<outputDir>/runs/<id>/plan.json`), so a
 * run that never wrote its results (killed hard) can still be resumed: each planned case's key, trial
 * count and fingerprint, in plan order, and the command line it was started with (for the message
 * when the plan no longer matches).
 */
export const PlanRecordSchema = z.object({
  runId: z.string(),
  argv: z.array(z.string()),
  cases: z.array(z.object({ key: z.string(), planned: z.number().int().nonnegative(), fingerprint: z.string().optional() })),
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;
export type PlannedEntry = PlanRecord['cases'][number];

export const PLAN_FILE = 'plan.json';

/** The record of a plan. Pure. */
export function planRecord(runId: string, argv: string[], cases: readonly PlannedCase[]): PlanRecord {
  return { runId, argv, cases: cases.map(plannedEntry) };
}

function plannedEntry(c: PlannedCase): PlannedEntry {
  return { key: c.key, planned: c.repeat, fingerprint: caseFingerprint(c) };
}

/**
 * The first difference between a recorded plan and the current one, in words (undefined: the same
 * plan): a case added or gone, a trial count or a case fingerprint changed. Kept trials are only
 * worth keeping for the same cases asked the same way. Pure.
 */
export function planChange(recorded: readonly PlannedEntry[], current: readonly PlannedCase[]): string | undefined {
  const now = new Map(current.map((c) => [c.key, plannedEntry(c)]));
  const then = new Map(recorded.map((e) => [e.key, e]));
  for (const [key, e] of then) {
    const c = now.get(key);
    if (!c) return `case ${key} is in the recording but not in this run's plan`;
    if (e.fingerprint !== c.fingerprint) return `case ${key} changed since the recording (fingerprint ${e.fingerprint ?? 'none'}, now ${c.fingerprint})`;
    if (e.planned !== c.planned) return `case ${key} planned ${e.planned} trial${e.planned === 1 ? '' : 's'} there, ${c.planned} now`;
  }
  const added = current.find((c) => !then.has(c.key));
  return added ? `case ${added.key} is in this run's plan but not in the recording` : undefined;
}
