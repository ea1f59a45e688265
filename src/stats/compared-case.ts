import { z } from 'zod';
import { CaseResultSchema, SCHEMA_VERSION, TrialVerdictSchema, type CaseResult } from '../core/results-schema.js';

/** What a comparison reads of a case: a results file's case, or the runner's as it ends (no trials' data). */
export const ComparableCaseSchema = CaseResultSchema.pick({
  suite: true,
  id: true,
  matrix: true,
  verdict: true,
  passed: true,
  fingerprint: true,
  judgeFingerprint: true,
  judgeErrors: true,
  reducer: true,
}).extend({
  score: z.object({ mean: z.number() }),
  trials: z.array(z.object({ verdict: TrialVerdictSchema })),
});
export type ComparableCase = z.infer<typeof ComparableCaseSchema>;

/** The part of a results document a comparison reads; every other field may be anything. */
export const ComparableResultsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  run: z.object({ id: z.string(), gitSha: z.string().nullable(), startedAt: z.string() }).optional(),
  cases: z.array(ComparableCaseSchema),
});
export type ComparableResults = z.infer<typeof ComparableResultsSchema>;

/** A case result cut down to what a comparison reads, so a run keeps no trial's data for it. */
export function comparableCase(r: CaseResult): ComparableCase {
  return {
    suite: r.suite,
    id: r.id,
    ...(r.matrix ? { matrix: r.matrix } : {}),
    verdict: r.verdict,
    passed: r.passed,
    ...(r.fingerprint !== undefined ? { fingerprint: r.fingerprint } : {}),
    ...(r.judgeFingerprint !== undefined ? { judgeFingerprint: r.judgeFingerprint } : {}),
    ...(r.judgeErrors !== undefined ? { judgeErrors: r.judgeErrors } : {}),
    ...(r.reducer ? { reducer: r.reducer } : {}),
    score: { mean: r.score.mean },
    trials: r.trials.map((t) => ({ verdict: t.verdict })),
  };
}
