import pLimit from 'p-limit';
import { buildJudgeRequest, type Criterion, type JudgeScore } from '../../core/judge-port.js';
import { errorMessage, spentOf } from '../../core/errors.js';
import { sumUsage, type Usage } from '../../core/usage.js';
import { judgeCacheFor } from '../../judges/cache.js';
import { criterionFromSpec } from '../../judges/criterion-from-spec.js';
import { boundGradedOutput } from '../../judges/graded-output.js';
import type { SingleJudgeRef as JudgeRef } from '../../judges/resolve.js';
import { calibrationSpec } from '../../judges/calibration-types.js';
import { ProviderLimiters } from '../../providers/adaptive-limit.js';
import { warningPricing } from '../../providers/run-usage.js';
import type { SecretRedactor } from '../../providers/secret-redactor.js';
import { redactJudgeRequest } from '../../providers/judge-request-redaction.js';
import { agreementWithin, bestThresholdByKappa, cohensKappa, confusionMatrix, accuracy, meanAbsoluteError, spearman, trueNegativeRate, truePositiveRate } from '../../stats/agreement.js';
import type { LabelRow, LabelSet } from '../../suite/labels.js';
import { judgeInstances } from '../../judges/judge-instances.js';
import { dayOf } from '../../providers/model-retirement.js';
import { retiredModelWarnings, type RunSettings } from '../loop/index.js';
import { scaleOf, type CalibratedRow, type Calibration, type CalibrationCriterion } from '../../judges/calibration-schema.js';

export interface CalibrationOptions {
  settings: Pick<RunSettings, 'judging' | 'concurrency' | 'env' | 'pricing' | 'proxy'>;
  judge: JudgeRef;
  criterion: CalibrationCriterion;
  /** A judge score (0..1) at or above it is a pass. */
  threshold: number;
  labels: LabelSet;
  warn(message: string): void;
  /** Applied to every judge request and to what the judge cache writes to disk. */
  redactor?: SecretRedactor;
}

const WORST = 10;

/**
 * Judges every labelled row through the judges runs use (same construction, cache, limiters and
 * request path: the output reaches the judge only as untrusted data) and measures the agreement.
 */
export async function calibrate(opts: CalibrationOptions): Promise<Calibration> {
  const { settings, criterion, labels } = opts;
  const judging = settings.judging;
  const scale = scaleOf(criterion);
  const pricing = warningPricing(settings.pricing, opts.warn);
  const limiters = new ProviderLimiters(settings.concurrency, { proxy: settings.proxy });
  const cache = judgeCacheFor(judging, opts.redactor);
  try {
    // Made before the first row: a missing key or an unknown judge is bad input, not a failed row.
    const judge = judgeInstances({ settings: judging, cache, pricing, env: settings.env, warn: opts.warn, limiters }).judgeFor(opts.judge);
    const who = judging.override !== undefined ? '--judge' : judging.judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : 'config judge';
    for (const w of retiredModelWarnings([{ model: `${judge.provider}:${judge.model}`, who }], dayOf(new Date()))) opts.warn(w);
    const limit = pLimit(settings.concurrency);
    const usages: Usage[] = [];
    const results = await Promise.all(
      labels.rows.map((row) =>
        limit(async (): Promise<CalibratedRow> => {
          const human = { ...(row.humanScore !== undefined ? { humanScore: row.humanScore } : {}), ...(row.humanVerdict ? { humanVerdict: row.humanVerdict } : {}) };
          let score: JudgeScore;
          try {
            score = await judge.judge(redactJudgeRequest(requestFor(row, criterion, judging), opts.redactor));
          } catch (err) {
            const spent = spentOf(err).usage;
            if (spent) usages.push(spent);
            return { id: row.id, line: row.line, ...human, judgeScore: null, judgeVerdict: null, reason: '', error: errorMessage(err) };
          }
          usages.push(score.usage);
          return {
            id: row.id,
            line: row.line,
            ...human,
            // 0.7 × 10 is 7.000000000000001 in floating point.
            judgeScore: Math.round(score.score * scale * 1e9) / 1e9,
            judgeVerdict: score.score >= opts.threshold ? 'pass' : 'fail',
            reason: score.reason,
            ...(score.cached ? { cached: true } : {}),
          };
        }),
      ),
    );
    const judged = results.filter((r) => r.judgeScore !== null);
    return {
      version: 1,
      file: labels.file,
      judge: `${judge.provider}:${judge.model}`,
      criterion,
      threshold: opts.threshold,
      rows: labels.rows.length,
      judged: judged.length,
      judgeErrors: results.length - judged.length,
      skippedLines: labels.unlabelled,
      ...agreement(judged, scale, opts.threshold),
      usage: sumUsage(usages),
      cachedRows: results.filter((r) => r.cached).length,
      results,
    };
  } finally {
    await cache?.close();
  }
}

function requestFor(row: LabelRow, criterion: CalibrationCriterion, judging: CalibrationOptions['settings']['judging']) {
  return buildJudgeRequest({
    criterion: criterionOf(criterion, row),
    output: boundGradedOutput(row.output, judging.judgeMaxOutputChars),
    input: row.input ?? '',
    // A labels file may come from production logs: its instructions are data, like the output.
    ...(row.instructions !== undefined ? { reportedInstructions: row.instructions } : {}),
    run: { reply: row.output },
    tracePolicy: judging.trace,
    subject: { case: `calibration/${row.id}`, assertion: criterion.type, type: criterion.type },
  });
}

/** The criterion an eval file's assertion of this type would give for the row. */
function criterionOf(c: CalibrationCriterion, row: LabelRow): Criterion {
  return criterionFromSpec(calibrationSpec(c), row.reference);
}

type Agreement = Pick<Calibration, 'scores' | 'verdicts' | 'thresholdAdvice' | 'worstDisagreements'>;

function agreement(judged: CalibratedRow[], scale: number, threshold: number): Agreement {
  const scored = judged.filter((r) => r.humanScore !== undefined).map((r) => ({ judge: r.judgeScore!, human: r.humanScore! }));
  const tolerance = scale / 10;
  const withVerdict = judged.filter((r) => r.humanVerdict !== undefined);
  const matrix = confusionMatrix(withVerdict.map((r) => ({ judge: r.judgeVerdict === 'pass', human: r.humanVerdict === 'pass' })));
  return {
    scores: scored.length
      ? {
          rows: scored.length,
          exactAgreement: agreementWithin(scored, 0),
          tolerance,
          withinTolerance: agreementWithin(scored, tolerance),
          meanAbsoluteError: meanAbsoluteError(scored),
          spearman: spearman(scored),
        }
      : null,
    verdicts: withVerdict.length
      ? {
          rows: withVerdict.length,
          accuracy: accuracy(matrix),
          kappa: cohensKappa(matrix),
          truePositiveRate: truePositiveRate(matrix),
          trueNegativeRate: trueNegativeRate(matrix),
          confusionMatrix: matrix,
        }
      : null,
    thresholdAdvice: bestThresholdByKappa(withVerdict.map((r) => ({ score: r.judgeScore! / scale, human: r.humanVerdict === 'pass' }))),
    worstDisagreements: judged
      .map((r) => ({ r, d: disagreement(r, scale, threshold) }))
      .filter((x) => x.d > 0)
      .sort((a, b) => b.d - a.d || a.r.line - b.r.line)
      .slice(0, WORST)
      .map((x) => x.r),
  };
}

/** How far judge and human are apart: a verdict that differs counts 1, plus the score distance on 0..1. */
function disagreement(r: CalibratedRow, scale: number, threshold: number): number {
  const score01 = r.judgeScore! / scale;
  const verdictMiss = r.humanVerdict !== undefined && r.humanVerdict !== r.judgeVerdict;
  const distance = r.humanScore !== undefined ? Math.abs(score01 - r.humanScore / scale) : verdictMiss ? Math.abs(score01 - threshold) : 0;
  return (verdictMiss ? 1 : 0) + distance;
}
