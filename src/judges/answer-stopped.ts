import { JudgeResponseError } from '../core/errors.js';
import type { TokenUsage, Usage } from '../core/usage.js';
import type { CompletionResponse } from '../providers/types.js';

/** How a judge's answer ended when it is not an answer: cut at the token limit, or refused. */
export type AnswerStop = 'cut' | 'refused';

/** What a judge reads of a reply to tell a cut or a refusal from a malformed answer. */
export type StopSignals = Pick<CompletionResponse, 'finishReason' | 'refusal' | 'text'> & { usage?: TokenUsage };

/**
 * Why a judge reply is no answer at all, in words naming the model — or undefined when the model
 * finished normally. A cut (`length` / Anthropic `max_tokens`) and a refusal (OpenAI `refusal` or
 * content filter, Anthropic `refusal` stop) are not "not JSON": saying so would send the user
 * looking at the prompt instead of the token limit or the content.
 */
export function answerStop(spec: string, res: StopSignals, maxTokens: number | undefined): { stop: AnswerStop; message: string } | undefined {
  if (res.finishReason === 'length') {
    // Cut at the limit, the output tokens spent are the limit: they say N where the limit is the spec's.
    const limit = maxTokens ?? res.usage?.outputTokens;
    const reasoning = res.usage?.reasoningTokens ? `, ${res.usage.reasoningTokens} of them spent reasoning` : '';
    return {
      stop: 'cut',
      message: `judge ${spec}: answer cut at max tokens${limit !== undefined ? ` (${limit})` : ''}${reasoning} before it was complete; raise the judge model's maxTokens`,
    };
  }
  if (res.finishReason === 'refusal' || res.finishReason === 'content_filter') {
    const said = (res.refusal ?? res.text).trim();
    return { stop: 'refused', message: `judge ${spec}: refused to answer${said ? `: ${JSON.stringify(said.slice(0, 300))}` : ' (content filter)'}` };
  }
  return undefined;
}

/**
 * A judge answer that was cut or refused: a response error (the raw text is kept, the tokens spent
 * are counted) whose message says which, instead of "judge response invalid".
 */
export class JudgeAnswerStoppedError extends JudgeResponseError {
  constructor(
    readonly stop: AnswerStop,
    message: string,
    raw: string,
    usage?: Usage,
  ) {
    super(message, raw, usage);
    this.message = message;
  }
}
