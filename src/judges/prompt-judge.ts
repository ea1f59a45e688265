import type { Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';
import type { MediaPart } from '../core/content-parts.js';
import { TokenUsageSchema, usageFromTokens, type TokenUsage, type Usage } from '../core/usage.js';
import { JudgeResponseError } from '../core/errors.js';
import { priceUsage } from '../providers/pricing.js';
import type { AgentJudgeRunSettings, JudgePricer } from './agent-judge.js';
import { buildJudgePrompt } from './prompt.js';
import { readJudgeAnswer } from './parse-answer.js';

/** The provider a prompt judge reports: it calls no provider of ours, so a budget has nothing to price up front. */
export const PROMPT_JUDGE_PROVIDER = 'prompt';

/** What the callable may answer: the text, or the text with the usage (and `provider:model`) of what it spent. */
export interface PromptJudgeAnswer {
  text: string;
  usage?: TokenUsage;
  /** `provider:model` that prices `usage` from the run's price table. */
  model?: string;
}

/** The same prompt in parts, for a callable that sends a system message of its own. */
export interface PromptJudgeCall {
  system: string;
  user: string;
  /** Aborts when the run is stopped. */
  signal?: AbortSignal;
  /**
   * The case's images and files (its content parts), in the order the prompt names them
   * (`[attachment 1: ...]`): inline ones as base64 with media type, size and sha256, or an image URL.
   */
  attachments?: readonly MediaPart[];
}

export type PromptJudgeFn = (prompt: string, call: PromptJudgeCall) => string | PromptJudgeAnswer | Promise<string | PromptJudgeAnswer>;

export interface PromptJudgeOptions {
  /** Reported as the judge's model in the results (default `callable`; the provider is `prompt`). */
  name?: string;
  /** The judge's persona, replacing the built-in first line of the system prompt (the rules stay). */
  system?: string;
}

export interface PromptJudge extends Judge {
  readonly kind: 'prompt';
  /** The run injects its pricing here, as for an agent judge; until then the built-in price table prices. */
  useRunSettings(settings: Pick<AgentJudgeRunSettings, 'price'>): void;
}

/**
 * A judge from any callable that answers a prompt with text (an agent of your own, another SDK). It
 * gets the built-in judge's prompt, untrusted delimiters included (`prompt` is system then user
 * text), and its answer is read as the built-in judge's is: the first JSON object in the text,
 * validated against the criterion's contract (for a rubric, `score` from 0 to 1 and a non-empty
 * `reason`); anything else is a JudgeResponseError, so the assertion errors as a gate. Nothing is
 * cached: each judgment calls the callable. Usage counts only when the callable reports it.
 */
export function promptJudge(fn: PromptJudgeFn, options: PromptJudgeOptions = {}): PromptJudge {
  let price: JudgePricer = (tokens, model) => usageFromTokens(tokens, priceUsage(model, tokens));
  return {
    kind: 'prompt',
    provider: PROMPT_JUDGE_PROVIDER,
    model: options.name ?? 'callable',
    ...(options.system !== undefined ? { system: options.system } : {}),
    useRunSettings(settings) {
      price = settings.price;
    },
    async judge(req: JudgeRequest): Promise<JudgeScore> {
      // The callable answers in plain text: the prompt carries the answer's JSON Schema.
      const prompt = buildJudgePrompt(req, { schemaInPrompt: true, persona: options.system });
      const call: PromptJudgeCall = { system: prompt.system, user: prompt.user, ...(req.signal ? { signal: req.signal } : {}), ...(prompt.attachments ? { attachments: prompt.attachments } : {}) };
      const answer = await fn(`${prompt.system}\n\n${prompt.user}`, call);
      const { text, usage } = readAnswer(answer, price);
      return { ...readJudgeAnswer(prompt.contract, text, usage, req.output), raw: text, usage };
    },
  };
}

/**
 * The callable's answer and what it spent: reported tokens priced by the reported model (no model:
 * an unknown cost); a bare text reports nothing, so it adds no calls, tokens or cost.
 */
function readAnswer(answer: string | PromptJudgeAnswer, price: JudgePricer): { text: string; usage: Usage } {
  if (typeof answer === 'string') return { text: answer, usage: usageFromTokens({ inputTokens: 0, outputTokens: 0 }, 0, 0) };
  if (answer === null || typeof answer !== 'object' || typeof answer.text !== 'string') {
    throw new JudgeResponseError(`the prompt judge's callable returned ${answer === null ? 'null' : typeof answer}; expected a string or { text, usage?, model? }`, String(answer));
  }
  if (answer.usage === undefined) return { text: answer.text, usage: usageFromTokens({ inputTokens: 0, outputTokens: 0 }, 0, 0) };
  const tokens = TokenUsageSchema.safeParse(answer.usage);
  if (!tokens.success) throw new JudgeResponseError(`the prompt judge's usage is not token counts: ${tokens.error.issues[0]?.message ?? 'invalid'}`, answer.text);
  return { text: answer.text, usage: answer.model ? price(tokens.data, answer.model, undefined) : usageFromTokens(tokens.data, null) };
}
