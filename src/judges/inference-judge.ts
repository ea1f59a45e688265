import type { Provider } from '../providers/types.js';
import type { TokenUsage, Usage } from '../core/usage.js';
import type { Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';
import { buildJudgePrompt } from './prompt.js';
import { readJudgeAnswer } from './parse-answer.js';
import { answerStop, JudgeAnswerStoppedError } from './answer-stopped.js';
import { jsonItem, judgeCacheKeyOfJson, type CachedAnswer, type JudgeCache } from './cache.js';
import type { ResponseContract } from './criteria/template.js';

export interface InferenceJudgeOptions {
  /** Judges default to temperature 0 (repeatable verdicts); a config may raise it. */
  temperature?: number;
  maxTokens?: number;
  /** Endpoint, headers and sampling of the provider (see judgeIdentity): part of the cache key. */
  identity?: Record<string, unknown>;
  /** Used only at temperature 0 (see below). */
  cache?: JudgeCache;
  /**
   * False: never wait on an identical call of this run (the disk cache still answers). A live judge
   * of a `--judge-batch` run, whose caller holds a concurrency slot, must not wait on the batch.
   */
  shareInRun?: boolean;
  /** The judge's persona, replacing the built-in first line of its system prompt (part of the cache key through it). */
  system?: string;
  /** Prices one call's tokens for this judge's model. */
  price(tokens: TokenUsage): Usage;
  /** `provider` sends its calls through a batch API: the judge says so in the results. */
  batch?: boolean;
  /** What its calls are made with (judgeCalledWith): reported for its fingerprint. */
  calledWith?: Record<string, string | number | boolean | null>;
}

/**
 * The single-inference judge: one structured-output call (OpenAI json_schema, Anthropic forced
 * tool), validated in code. Pass/fail is never taken from the model: it only returns a score.
 */
export function inferenceJudge(provider: Provider, opts: InferenceJudgeOptions): Judge {
  const temperature = opts.temperature ?? 0;
  // What all of this judge's calls share, built and serialized for the cache key once: the schema
  // per response contract (contracts are shared, see criteria/template.ts), the options per temperature,
  // the system prompt (one per judge). The key is the same as judgeCacheKey's over the same parts.
  const specJson = jsonItem(provider.spec);
  const schemas = new WeakMap<ResponseContract, { schema: { name: string; jsonSchema: Record<string, unknown> }; json: string }>();
  const schemaOf = (contract: ResponseContract) => {
    let s = schemas.get(contract);
    if (!s) {
      const schema = { name: contract.name, jsonSchema: contract.jsonSchema };
      schemas.set(contract, (s = { schema, json: jsonItem(schema) }));
    }
    return s;
  };
  const optionsJson = new Map<number, string>();
  const optionsOf = (t: number) => {
    let json = optionsJson.get(t);
    if (json === undefined) optionsJson.set(t, (json = jsonItem({ ...opts.identity, temperature: t, maxTokens: opts.maxTokens ?? null })));
    return json;
  };
  let systemJson: { text: string; json: string } | undefined;
  const systemOf = (text: string) => (systemJson?.text === text ? systemJson.json : (systemJson = { text, json: jsonItem(text) }).json);
  return {
    provider: provider.id,
    model: provider.model,
    ...(opts.system !== undefined ? { system: opts.system } : {}),
    ...(opts.batch ? { batch: true } : {}),
    ...(opts.calledWith ? { calledWith: opts.calledWith } : {}),
    async judge(req: JudgeRequest): Promise<JudgeScore> {
      // The provider enforces the answer's schema (structured output), so the prompt need not spell it out.
      const prompt = buildJudgePrompt(req, { persona: opts.system });
      const t = req.temperature ?? temperature;
      const { schema, json: schemaJson } = schemaOf(prompt.contract);
      const call = async (): Promise<CachedAnswer> => {
        const res = await provider.complete({
          system: prompt.system,
          messages: [{ role: 'user', content: prompt.user, stablePrefix: prompt.stablePrefix, ...(prompt.attachments ? { attachments: prompt.attachments } : {}) }],
          schema,
          temperature: t,
          ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
          ...(req.signal ? { signal: req.signal } : {}),
        });
        const ended = res.finishReason === 'stop' || res.finishReason === 'tool_calls' ? {} : { finishReason: res.finishReason };
        return { text: res.text, tokens: res.usage, model: res.model, ...ended, ...(res.refusal !== undefined ? { refusal: res.refusal } : {}) };
      };
      // The prompt names each attachment by its sha256 (attachmentLines), so the key covers the images too.
      const key = judgeCacheKeyOfJson([specJson, systemOf(prompt.system), jsonItem(prompt.user), schemaJson, optionsOf(t)]);
      // Above temperature 0 the user asked for independent samples: no sharing within the run and
      // no answer from (or for) the disk cache, so every trial gets its own judgment.
      const cache = t === 0 ? opts.cache : undefined;
      const answer = cache ? await cache.getOrCall(key, call, opts.shareInRun !== false) : Object.assign(await call(), { cached: false });
      const spent = answer.cached ? opts.price({ inputTokens: 0, outputTokens: 0 }) : opts.price(answer.tokens);
      // A cut or refused reply is named as such, never read as a malformed answer.
      const stopped = answerStop(provider.spec, { finishReason: answer.finishReason ?? 'stop', refusal: answer.refusal, text: answer.text, usage: answer.tokens }, opts.maxTokens);
      if (stopped) throw new JudgeAnswerStoppedError(stopped.stop, stopped.message, answer.text, spent);
      const verdict = readJudgeAnswer(prompt.contract, answer.text, spent, req.output);
      if (cache && !answer.cached) await cache.store(key, { text: answer.text, tokens: answer.tokens, model: answer.model });
      // Object.assign, not `{ ...verdict, raw, ... }`: V8 (Node 20) builds a literal that opens with a spread many times slower.
      return Object.assign(
        {},
        verdict,
        { raw: answer.text, usage: Object.assign({}, spent, { calls: answer.cached ? 0 : 1 }) },
        answer.cached ? { cached: true, savedTokens: answer.tokens.inputTokens + answer.tokens.outputTokens } : {},
      );
    },
  };
}
