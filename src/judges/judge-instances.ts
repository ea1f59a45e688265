import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { createProvider, providerSettings } from '../providers/create.js';
import { createBatchApi, hasBatchApi } from '../providers/batch-create.js';
import { parseModelSpec, type ModelSpecInput } from '../providers/model-spec.js';
import type { Provider } from '../providers/types.js';
import type { JudgeBatch } from './judge-batch.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import { priced, type Pricing } from '../providers/run-usage.js';
import { maxTokensOf } from '../providers/max-tokens.js';
import type { JudgeCache } from './cache.js';
import type { AgentJudgeRunSettings } from './agent-judge.js';
import type { Judge } from '../core/judge-port.js';
import { fakeJudge, loadFakeFixtures } from './fake-judge.js';
import { inferenceJudge } from './inference-judge.js';
import { judgeIdentity } from './judge-identity.js';
import { judgeCalledWith } from './judge-fingerprint.js';
import { splitJudgeSystem } from './judge-system.js';
import { isFakeRef, isJudgeInstance, refKey, type SingleJudgeRef } from './resolve.js';
import { isJudgeName, unknownJudgeMessage } from './judge-ref-check.js';
import type { JudgeSettings } from './settings.js';

/**
 * One judge per reference for the whole run: a provider (and its key check) is made once, and a
 * judge object from TS (`agentJudge(...)`) is used as it is, its warnings forwarded once.
 */
export function judgeInstances(opts: {
  settings: Pick<JudgeSettings, 'rootDir' | 'judges' | 'dryRun'>;
  cache: JudgeCache | undefined;
  pricing: Pricing;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
  limiters: ProviderLimiters;
  /** `--judge-batch`: an inference judge's calls wait in this batch, unless asked `live`. */
  batch?: JudgeBatch;
}): { judgeFor(ref: SingleJudgeRef, live?: boolean): Judge } {
  const judges = new Map<string, Judge>();
  const subscribed = new WeakSet<object>();
  // A provider without a batch API (the OpenAI-compatible presets) judges live under --judge-batch, said once.
  const liveWarned = new Set<string>();
  const batchable = (ref: SingleJudgeRef): boolean => {
    let provider;
    try {
      provider = parseModelSpec(splitJudgeSystem(ref).model).provider;
    } catch {
      return true; // an invalid spec fails where the judge is built, as without --judge-batch
    }
    if (hasBatchApi(provider)) return true;
    if (!liveWarned.has(provider)) {
      liveWarned.add(provider);
      opts.warn(`--judge-batch: ${provider} has no batch API; its judge calls are made live, at the full price`);
    }
    return false;
  };
  // `judge: auditor` in a file names a judge of the config's `judges`.
  const byName = (ref: SingleJudgeRef): SingleJudgeRef => {
    if (!isJudgeName(ref)) return ref;
    const found = opts.settings.judges[ref];
    if (found === undefined) throw new UserError(unknownJudgeMessage(ref, opts.settings.judges), { field: 'judge' });
    return found;
  };
  return {
    judgeFor(named, live = false) {
      const ref = byName(named);
      if (!opts.settings.dryRun && isJudgeInstance(ref)) {
        if (!subscribed.has(ref)) {
          subscribed.add(ref);
          const instance = ref as { onEvent?: (l: (e: { message: string }) => void) => void; useRunSettings?: (s: AgentJudgeRunSettings) => void };
          instance.onEvent?.((e) => opts.warn(e.message));
          // An agent judge gets the run's settings like every other judge: the config's price table and
          // the run's unpriced warning, the run's environment, and the run's limiters for its provider.
          instance.useRunSettings?.({
            price: (tokens, model, own) => priced(tokens, model, own ? { overrides: { ...opts.pricing.overrides, ...own }, warnUnpriced: (m) => opts.pricing.warnUnpriced(m) } : opts.pricing),
            limiters: opts.limiters,
            env: opts.env,
          });
        }
        return ref;
      }
      const batch = opts.batch && !live && !opts.settings.dryRun && !isFakeRef(ref) && batchable(ref) ? opts.batch : undefined;
      const key = opts.settings.dryRun ? 'dry-run' : `${refKey(ref)}${batch ? ' batch' : ''}`;
      let judge = judges.get(key);
      if (judge) return judge;
      if (opts.settings.dryRun || isFakeRef(ref)) {
        const fixtures = typeof ref === 'object' && 'fixtures' in ref && typeof ref.fixtures === 'string' ? loadFakeFixtures(resolve(opts.settings.rootDir, ref.fixtures)) : [];
        judge = fakeJudge(fixtures);
      } else {
        // `system` (the persona) is the judge's, not the provider's.
        const { model, system } = splitJudgeSystem(ref);
        const live = createProvider(model as never, opts.env, { limiters: opts.limiters });
        // The same judge either way: only where its calls go (and their price) differ.
        const provider = batch ? batchingProvider(batch, live, model as never, opts) : live;
        // A judge spec's own temperature wins over the judge default of 0.
        const temperature = typeof model === 'object' ? (model as { temperature?: number }).temperature : undefined;
        judge = inferenceJudge(provider, {
          identity: judgeIdentity(model as never, opts.env),
          calledWith: judgeCalledWith(model as never, temperature ?? 0),
          price: (tokens) => priced(tokens, provider.spec, opts.pricing, { batch: batch !== undefined }),
          ...(batch ? { batch: true } : {}),
          // A live read inside `check` holds its trial's slot: waiting on a batched twin would deadlock the flush.
          ...(opts.batch && !batch ? { shareInRun: false } : {}),
          ...(opts.cache ? { cache: opts.cache } : {}),
          ...(temperature !== undefined ? { temperature } : {}),
          ...(system !== undefined ? { system } : {}),
        });
      }
      judges.set(key, judge);
      return judge;
    },
  };
}

/** `live`'s calls sent through its provider's batch API (its module loaded now, in the background). */
function batchingProvider(batch: JudgeBatch, live: Provider, model: ModelSpecInput, opts: { env: NodeJS.ProcessEnv; limiters: ProviderLimiters }): Provider {
  const settings = providerSettings(model, opts.env, { limiters: opts.limiters });
  // The limit a call really gets (Anthropic's thinking models default higher), for the cost estimate.
  return batch.provider(live, createBatchApi(settings), maxTokensOf(settings.spec));
}
