import { z } from 'zod';
import { AssertionStatusSchema, CaseResultSchema, SCHEMA_VERSION, TrialVerdictSchema, type AssertionResult, type CaseResult } from '../core/results-schema.js';

/**
 * What a comparison reads of one assertion result: which it is (turn, type, name), how it ended,
 * whether a judge graded it (`judge`, or a panel: then `judged`) and by which judge (the hash of its
 * fingerprint). Parsing a results file keeps only these (zod drops the rest).
 */
export const ComparedAssertionSchema = z.object({
  name: z.string(),
  kind: z.string(),
  status: AssertionStatusSchema,
  turn: z.number().int().positive().optional(),
  judge: z.object({ model: z.string() }).optional(),
  panel: z.object({ aggregate: z.string() }).optional(),
  judgeFingerprint: z.object({ hash: z.string() }).optional(),
});
export type ComparedAssertion = z.infer<typeof ComparedAssertionSchema>;

/** What a comparison reads of a case: a results file's case, or the runner's as it ends (no trials' data). */
export const ComparableCaseSchema = CaseResultSchema.pick({
  suite: true,
  id: true,
  matrix: true,
  verdict: true,
  passed: true,
  fingerprint: true,
  judgeFingerprint: true,
  toolsFingerprint: true,
  judgeErrors: true,
  reducer: true,
}).extend({
  score: z.object({ mean: z.number() }),
  /**
   * `error`: the target or the check ended the trial (its assertions are then none). `assertions`: absent
   * in a case made before a comparison read them (it is then compared by its verdict and score alone).
   */
  trials: z.array(
    z.object({
      verdict: TrialVerdictSchema,
      /** The trial's score: a score that drops while the pass rate holds is tested on these (rank-sum.ts). */
      score: z.number().optional(),
      error: z.string().optional(),
      assertions: z.array(ComparedAssertionSchema).optional(),
    }),
  ),
});
export type ComparableCase = z.infer<typeof ComparableCaseSchema>;

/** The part of a results document a comparison reads; every other field may be anything. */
export const ComparableResultsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  /** `interrupted`: Ctrl-C cut the run short (its cases cut short are then `not-run`). */
  run: z.object({ id: z.string(), gitSha: z.string().nullable(), startedAt: z.string(), interrupted: z.boolean().optional() }).optional(),
  cases: z.array(ComparableCaseSchema),
});
export type ComparableResults = z.infer<typeof ComparableResultsSchema>;

/** A case result cut down to what a comparison reads, so a run keeps no trial's data for it (only each assertion's name and outcome). */
export function comparableCase(r: CaseResult): ComparableCase {
  return {
    suite: r.suite,
    id: r.id,
    ...(r.matrix ? { matrix: r.matrix } : {}),
    verdict: r.verdict,
    passed: r.passed,
    ...(r.fingerprint !== undefined ? { fingerprint: r.fingerprint } : {}),
    ...(r.judgeFingerprint !== undefined ? { judgeFingerprint: r.judgeFingerprint } : {}),
    ...(r.toolsFingerprint !== undefined ? { toolsFingerprint: r.toolsFingerprint } : {}),
    ...(r.judgeErrors !== undefined ? { judgeErrors: r.judgeErrors } : {}),
    ...(r.reducer ? { reducer: r.reducer } : {}),
    score: { mean: r.score.mean },
    trials: r.trials.map((t) => ({ verdict: t.verdict, score: t.score, ...(t.error !== undefined ? { error: t.error } : {}), assertions: t.assertions.map(comparedAssertion) })),
  };
}

/** An assertion result cut down to what a comparison reads (as parsing a file with ComparedAssertionSchema does). */
function comparedAssertion(a: AssertionResult): ComparedAssertion {
  return {
    name: a.name,
    kind: a.kind,
    status: a.status,
    ...(a.turn !== undefined ? { turn: a.turn } : {}),
    ...(a.judge ? { judge: { model: a.judge.model } } : {}),
    ...(a.panel ? { panel: { aggregate: a.panel.aggregate } } : {}),
    ...(a.judgeFingerprint ? { judgeFingerprint: { hash: a.judgeFingerprint.hash } } : {}),
  };
}
