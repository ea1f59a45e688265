import { AgentEvalsError, errorMessage } from '../core/errors.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { pushAll } from '../core/push-all.js';
import type { Pricing } from '../providers/run-usage.js';
import { askStructured, problemText } from '../providers/structured-answer.js';
import type { Provider } from '../providers/types.js';
import { answerFormat, answerSchema, type GeneratedItem } from './generated-item.js';
import { generatorPrompt, type GeneratorRequest } from './generator-prompt.js';

/** Most items one call asks for: a longer answer grows slow and is cut by the output-token limit. */
export const MAX_PER_CALL = 30;

export interface GeneratorAsk extends Omit<GeneratorRequest, 'count' | 'written'> {
  /** Items to ask for in all (over as many calls as MAX_PER_CALL needs). */
  asked: number;
  pricing: Pricing;
  signal?: AbortSignal;
}

/**
 * Asks the generator model for `asked` items, MAX_PER_CALL a call, each later call shown the inputs
 * already written. An answer that is not the schema is an error naming the generator model (and what
 * was wrong, where), with what was spent so far, and so is a call that failed; an answer longer than
 * asked is cut to it.
 */
export async function askGenerator(generator: Provider, ask: GeneratorAsk): Promise<{ items: GeneratedItem[]; usage: Usage }> {
  const items: GeneratedItem[] = [];
  let usage = emptyUsage();
  const format = answerFormat(ask.intents);
  const schema = answerSchema(ask.intents);
  while (items.length < ask.asked) {
    const count = Math.min(MAX_PER_CALL, ask.asked - items.length);
    const { system, user } = generatorPrompt({ ...ask, count, written: items.map((i) => i.input) });
    const answer = await askStructured(generator, { system, user, format, schema, pricing: ask.pricing, ...(ask.signal ? { signal: ask.signal } : {}) }).catch((err: unknown) => {
      throw new AgentEvalsError(`generator ${generator.spec}: ${errorMessage(err)}`, { cause: err, spent: { usage } });
    });
    usage = addUsage(usage, answer.usage);
    if ('problem' in answer) throw new AgentEvalsError(`generator ${generator.spec}: its answer is not the cases asked for${problemText(answer.problem)}`, { spent: { usage } });
    pushAll(items, answer.value.items.slice(0, count));
    // A call that wrote fewer than asked would be asked again for the same: what it gave is what there is.
    if (answer.value.items.length < count) break;
  }
  return { items, usage };
}
