import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import { JudgeResponseError, type JudgeError } from '../core/errors.js';
import type { AssertionResult } from '../core/results-schema.js';
import { emptyUsage } from '../core/usage.js';
import { dimensionMinimums, severityOf, thresholdOf } from './criterion-from-spec.js';
import type { JudgedDefaults } from '../core/judge-subject.js';
import type { JudgeAssertionSpec } from './spec.js';
import { assertionName } from '../assertions/assertion-name.js';
import type { Judgment } from './judgment.js';
import type { Graded } from './graded.js';
import { formatScore } from '../core/score-text.js';
import { withReasks } from './judge-noise.js';
import { withPanelResult } from './panel-result.js';

/**
 * The one place a judged assertion's result is built, from what judging it came to. Pass is
 * decided here, in code: score ≥ threshold and every dimension at its minimum. A judge that
 * failed is an error, which always fails as a gate; no judge at all fails as a gate too.
 */
export function judgedResult(spec: JudgeAssertionSpec, defaults: JudgedDefaults, judgment: Judgment): Graded {
  const graded = resultOf(spec, defaults, judgment);
  if (judgment.kind === 'scored' && judgment.reasks)
    return withReasks(
      withFingerprint(graded, judgment, spec),
      judgment.reasks.map((r) => resultOf(spec, defaults, r)),
    );
  return withFingerprint(graded, judgment, spec);
}

function withFingerprint(graded: Graded, judgment: Judgment, spec: JudgeAssertionSpec): Graded {
  if (judgment.panel && (judgment.kind === 'scored' || judgment.kind === 'failed')) withPanelResult(graded.result, judgment.panel, dimensionMinimums(spec));
  // Asked or not, the result says who judged it (or would have): what a comparison reads to tell a judge change.
  // The result was just built here, so it takes the field itself (last, as the results have always shown it).
  if (judgment.fingerprint) graded.result.judgeFingerprint = judgment.fingerprint;
  return graded;
}

function resultOf(spec: JudgeAssertionSpec, defaults: JudgedDefaults, judgment: Judgment): Graded {
  const name = assertionName(spec);
  const threshold = thresholdOf(spec, defaults);
  const weight = spec.weight ?? 1;
  const scale = 'scale' in spec && spec.scale === 10 ? (10 as const) : undefined;
  const on = (x: number) => formatScore(x, scale);
  // Scored and failed results list these first, as the results have always shown them. Each result is
  // `Object.assign(base(), rest)`, never `{ ...base, ...}`: in V8 (Node 20) a literal that opens with a
  // spread and adds properties after it is many times slower, once per judged assertion of every trial.
  const base = (): Pick<AssertionResult, 'name' | 'kind' | 'threshold' | 'weight' | 'scale'> =>
    scale ? { name, kind: spec.type, threshold, weight, scale } : { name, kind: spec.type, threshold, weight };
  // Messages lead with what was asked, not the label: reporters put a label in front once.
  const head = spec.label ? assertionName({ ...spec, label: undefined }) : name;
  switch (judgment.kind) {
    case 'skipped':
      return {
        result: {
          name,
          kind: spec.type,
          severity: severityOf(spec, defaults),
          status: 'skipped',
          score: 0,
          threshold,
          weight,
          message: 'skipped: a gate of this trial failed',
          skipped: judgment.skipped,
        },
        usage: emptyUsage(),
      };
    case 'empty-reply':
      return { result: Object.assign(base(), { severity: severityOf(spec, defaults), status: 'failed' as const, score: 0, message: `${head}: empty reply (not judged)` }), usage: emptyUsage() };
    case 'no-judge':
      return { result: { name, kind: spec.type, severity: 'gate', status: 'failed', score: 0, threshold, weight, message: 'No judge configured.' }, usage: emptyUsage() };
    case 'failed': {
      const { usage = emptyUsage(), run } = judgment.error.spent ?? {};
      const raw = judgment.error instanceof JudgeResponseError ? judgment.error.raw : undefined;
      const by = judgment.by;
      return {
        result: Object.assign(base(), {
          severity: 'gate' as const,
          status: 'error' as const,
          score: 0,
          message: `${head}: ${failureText(judgment.error)}`,
          ...(raw !== undefined ? { raw } : {}),
          ...(by
            ? {
                judge: {
                  provider: by.provider,
                  model: by.model,
                  ...(by.system !== undefined ? { system: by.system } : {}),
                  ...(by.batch !== undefined ? { batch: by.batch } : {}),
                  ...(run ? judgeRunFields(run) : {}),
                  usage,
                },
              }
            : {}),
        }),
        usage,
      };
    }
    case 'scored': {
      const { score, positionInconsistent } = judgment;
      // A cached answer was never in the batch: only what the batch answered says `batch`.
      const { batch, provider, model, system } = judgment.by;
      const mins = dimensionMinimums(spec);
      const lowDims = Object.entries(mins).filter(([d, min]) => (score.dimensions?.[d] ?? 0) < min);
      const passed = score.score >= threshold && lowDims.length === 0;
      const verdictText = passed
        ? `score ${on(score.score)} ≥ ${on(threshold)}`
        : score.score < threshold
          ? `score ${on(score.score)} < ${on(threshold)}`
          : `dimension${lowDims.length > 1 ? 's' : ''} below minimum: ${lowDims.map(([d, min]) => `${d} ${on(score.dimensions?.[d] ?? 0)} < ${on(min)}`).join(', ')}`;
      return {
        result: Object.assign(base(), {
          severity: severityOf(spec, defaults),
          status: passed ? ('passed' as const) : ('failed' as const),
          score: score.score,
          message: `${head}: ${verdictText}${score.choice ? ` (${score.choice})` : ''}${positionInconsistent ? ' — verdict flipped with the order: position-inconsistent tie' : ''}`,
          reason: score.reason,
          evidence: score.evidence,
          ...(score.dimensions ? { dimensions: Object.fromEntries(Object.entries(score.dimensions).map(([d, s]) => [d, { score: s, min: mins[d] ?? 0 }])) } : {}),
          ...(score.raw !== undefined ? { raw: score.raw } : {}),
          ...(score.choice !== undefined ? { choice: score.choice } : {}),
          ...(positionInconsistent !== undefined ? { positionInconsistent } : {}),
          judge: {
            provider,
            model,
            ...(system !== undefined ? { system } : {}),
            ...(batch && !score.cached ? { batch } : {}),
            usage: score.usage,
            ...(score.cached ? { cached: true } : {}),
            ...(score.savedTokens ? { savedTokens: score.savedTokens } : {}),
            ...(score.run ? judgeRunFields(score.run) : {}),
          },
        }),
        usage: score.usage,
      };
    }
  }
}

/** A failed judgment in words, by its kind: what the user reads in the result. */
function failureText(err: JudgeError): string {
  switch (err.kind) {
    case 'protocol':
      return `JudgeProtocolError: ${err.message}`;
    case 'call':
      return `judge call failed: ${err.message}`;
    default:
      return err.message;
  }
}

/** An agent judge's own run in the results: counts, and the run itself (already under the trace policy). */
function judgeRunFields(run: AgentRun): { steps: number; toolCalls: number; run: AgentRun } {
  return { steps: run.steps?.length ?? 0, toolCalls: toolCallsOf(run).length, run };
}
