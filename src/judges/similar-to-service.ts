import type { AssertionResult } from '../core/results-schema.js';
import type { JudgedDefaults } from '../core/judge-subject.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { errorMessage } from '../core/errors.js';
import { assertionName } from '../assertions/assertion-name.js';
import { cosineSimilarity, similarToMessage, type SimilarToSpec } from '../assertions/similar-to.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import { createEmbedder, providerSettings } from '../providers/create.js';
import { fakeEmbedder, type Embedder } from '../providers/embeddings.js';
import { dimensionsProblem, embeddingModelProblem } from '../providers/embedding-models.js';
import type { Pricing } from '../providers/run-usage.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { JudgeCache } from './cache.js';
import { cachedEmbedding } from './cached-embedding.js';
import type { Graded } from './graded.js';
import type { JudgeSettings } from './settings.js';

export interface SimilarToOptions {
  settings: Pick<JudgeSettings, 'embeddingModel' | 'dryRun'>;
  /** The judges' cache: an embedding is kept there like a judge answer (its vector as the answer's text). */
  cache: JudgeCache | undefined;
  pricing: Pricing;
  env: NodeJS.ProcessEnv;
  limiters: ProviderLimiters;
  redactor?: SecretRedactor;
}

/** Grades `similarTo` assertions: embeds the reply and the value (cached), compares them, prices what was called. */
export type SimilarToGrader = (spec: SimilarToSpec, reply: string, defaults: JudgedDefaults, signal: AbortSignal) => Promise<Graded>;

/** What a `similarTo` with no model says, here and before the run. */
export const NO_EMBEDDING_MODEL = 'no embedding model: set `model` on the assertion or `embeddingModel` in the config (`fake` for the offline one)';

export function similarToGrader(opts: SimilarToOptions): SimilarToGrader {
  const embedders = new Map<string, Embedder>();
  const embedderFor = (ref: string): Embedder => {
    // A dry run calls no model: every embedding is the fake one.
    if (opts.settings.dryRun || ref === 'fake') return fakeEmbedder;
    let embedder = embedders.get(ref);
    if (!embedder) embedders.set(ref, (embedder = createEmbedder(providerSettings(ref, opts.env, { limiters: opts.limiters }))));
    return embedder;
  };

  const use = { cache: opts.cache, pricing: opts.pricing, ...(opts.redactor ? { redactor: opts.redactor } : {}) };
  const embed = (embedder: Embedder, text: string, dimensions: number | undefined, signal: AbortSignal) => cachedEmbedding(embedder, text, dimensions, signal, use);

  return async (spec, reply, defaults, signal) => {
    const base = { name: assertionName(spec), kind: spec.type, threshold: spec.threshold, weight: spec.weight ?? 1 };
    const failed = (why: string): Graded => ({ result: { ...base, severity: 'gate', status: 'error', score: 0, message: `${base.name}: ${why}` }, usage: emptyUsage() });
    // Checked before the run for the files' assertions (embedding-check.ts); a TS check's are known only now.
    const ref = spec.model ?? opts.settings.embeddingModel;
    if (ref === undefined) return failed(NO_EMBEDDING_MODEL);
    const problem = embeddingModelProblem(ref) ?? (spec.dimensions !== undefined ? dimensionsProblem(ref, spec.dimensions) : undefined);
    if (problem) return failed(problem);
    let embedder: Embedder;
    try {
      embedder = embedderFor(ref);
    } catch (err) {
      return failed(errorMessage(err));
    }
    const [provider, model] = embedder.spec === 'fake' ? ['fake', 'fake'] : splitSpec(embedder.spec);
    if (reply.trim() === '') {
      const result: AssertionResult = { ...base, severity: spec.severity ?? defaults.severity, status: 'failed', score: 0, message: `${base.name}: empty reply (not embedded)` };
      return { result, usage: emptyUsage() };
    }
    let parts;
    try {
      // The offline embedder has one size: `dimensions` is not part of its key either.
      const dimensions = embedder === fakeEmbedder ? undefined : spec.dimensions;
      parts = await Promise.all([embed(embedder, reply, dimensions, signal), embed(embedder, spec.value, dimensions, signal)]);
    } catch (err) {
      return failed(`embedding failed: ${errorMessage(err)}`);
    }
    const usage: Usage = addUsage(...parts.map((p) => p.spent));
    usage.calls = parts.filter((p) => !p.cached).length;
    const score = cosineSimilarity(parts[0].vector, parts[1].vector);
    const cached = parts.every((p) => p.cached);
    const saved = parts.reduce((n, p) => n + p.saved, 0);
    const result: AssertionResult = {
      ...base,
      severity: spec.severity ?? defaults.severity,
      status: score >= spec.threshold ? 'passed' : 'failed',
      score,
      message: similarToMessage(spec, score, embedder.spec),
      judge: { provider, model, usage, ...(cached ? { cached: true, savedTokens: saved } : {}) },
    };
    return { result, usage };
  };
}

function splitSpec(spec: string): [string, string] {
  const colon = spec.indexOf(':');
  return [spec.slice(0, colon), spec.slice(colon + 1)];
}

/** A `similarTo` not embedded: skipped after a failed gate (no call, like a judge), or no grader in this run. */
export function similarToUngraded(spec: SimilarToSpec, defaults: JudgedDefaults, why: 'gate-failed' | 'no-grader'): Graded {
  const base = { name: assertionName(spec), kind: spec.type, threshold: spec.threshold, weight: spec.weight ?? 1, score: 0 };
  const result: AssertionResult =
    why === 'gate-failed'
      ? { ...base, severity: spec.severity ?? defaults.severity, status: 'skipped', message: 'skipped: a gate of this trial failed', skipped: 'gate-failed' }
      : { ...base, severity: 'gate', status: 'error', message: `${base.name}: no embedding model in this run` };
  return { result, usage: emptyUsage() };
}
