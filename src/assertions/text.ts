import { errorMessage } from '../core/errors.js';
import { z } from 'zod';
import { assertionObject, defineAssertion, final } from './define.js';
import { binary, charLength, foldCase, quote, quotedList, replySize } from './format.js';
import { safeRegex } from './safe-regex.js';

/** Text assertions over the reply. All gate by default, case-sensitive unless told otherwise. */

const caseSensitive = z.boolean().optional();

/** 1-based character position of a UTF-16 index, matching how lengths are counted. */
function charAt(s: string, utf16Index: number): number {
  return charLength(s.slice(0, utf16Index)) + 1;
}

function caseNote(sensitive: boolean | undefined): string {
  return sensitive === false ? ' (case-insensitive)' : '';
}

export const equals = defineAssertion(assertionObject('equals', { value: z.string() }), (spec, ctx) => {
  const ok = ctx.reply === spec.value;
  return {
    score: binary(ok),
    message: `equals ${quote(spec.value)}: ${ok ? 'reply is equal' : `reply is ${quote(ctx.reply)} (${firstDifference(spec.value, ctx.reply)})`}`,
  };
});

function firstDifference(a: string, b: string): string {
  const x = [...a];
  const y = [...b];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return `first difference at char ${i + 1}`;
}

export const contains = defineAssertion(assertionObject('contains', { value: z.string().min(1), caseSensitive }), (spec, ctx) => {
  const at = foldCase(ctx.reply, spec.caseSensitive).indexOf(foldCase(spec.value, spec.caseSensitive));
  const head = `contains ${quote(spec.value)}${caseNote(spec.caseSensitive)}`;
  return {
    score: binary(at >= 0),
    message: at >= 0 ? `${head}: found at char ${charAt(ctx.reply, at)}` : `${head}: not found in ${replySize(ctx.reply)}`,
  };
});

export const notContains = final(
  defineAssertion(assertionObject('notContains', { value: z.string().min(1), caseSensitive }), (spec, ctx) => {
    const at = foldCase(ctx.reply, spec.caseSensitive).indexOf(foldCase(spec.value, spec.caseSensitive));
    const head = `notContains ${quote(spec.value)}${caseNote(spec.caseSensitive)}`;
    return {
      score: binary(at < 0),
      message: at >= 0 ? `${head}: found at char ${charAt(ctx.reply, at)}` : `${head}: not found in ${replySize(ctx.reply)}`,
    };
  }),
);

function partition(values: readonly string[], reply: string, sensitive: boolean | undefined) {
  const hay = foldCase(reply, sensitive);
  const found = values.filter((v) => hay.includes(foldCase(v, sensitive)));
  const missing = values.filter((v) => !found.includes(v));
  return { found, missing };
}

/** Scores the fraction found, so a user can accept "most of them" with a lower threshold. */
export const containsAll = defineAssertion(assertionObject('containsAll', { values: z.array(z.string().min(1)).min(1), caseSensitive }), (spec, ctx) => {
  const { found, missing } = partition(spec.values, ctx.reply, spec.caseSensitive);
  const head = `containsAll ${quotedList(spec.values)}${caseNote(spec.caseSensitive)}`;
  const tally = `${found.length}/${spec.values.length} found`;
  return {
    score: found.length / spec.values.length,
    message: missing.length === 0 ? `${head}: ${tally}` : `${head}: missing ${quotedList(missing)} (${tally})`,
  };
});

export const containsAny = defineAssertion(assertionObject('containsAny', { values: z.array(z.string().min(1)).min(1), caseSensitive }), (spec, ctx) => {
  const { found } = partition(spec.values, ctx.reply, spec.caseSensitive);
  const head = `containsAny ${quotedList(spec.values)}${caseNote(spec.caseSensitive)}`;
  return {
    score: binary(found.length > 0),
    message: found.length > 0 ? `${head}: found ${quotedList(found)}` : `${head}: none found in ${replySize(ctx.reply)}`,
  };
});

export const startsWith = defineAssertion(assertionObject('startsWith', { value: z.string().min(1) }), (spec, ctx) => ({
  score: binary(ctx.reply.startsWith(spec.value)),
  message: `startsWith ${quote(spec.value)}: reply starts with ${quote([...ctx.reply].slice(0, charLength(spec.value)).join(''))}`,
}));

export const endsWith = defineAssertion(assertionObject('endsWith', { value: z.string().min(1) }), (spec, ctx) => ({
  score: binary(ctx.reply.endsWith(spec.value)),
  message: `endsWith ${quote(spec.value)}: reply ends with ${quote(lastChars(ctx.reply, charLength(spec.value)))}`,
}));

function lastChars(s: string, n: number): string {
  const chars = [...s];
  return chars.slice(Math.max(0, chars.length - n)).join('');
}

/** A bad pattern or flag is a load error (the file is wrong), not a failed trial. */
export const regex = defineAssertion(
  assertionObject('regex', { pattern: z.string().min(1), flags: z.string().optional() }).superRefine((spec, ctx) => {
    const patternProblem = regexError(spec.pattern);
    const problem = patternProblem ?? regexError(spec.pattern, spec.flags);
    if (problem === undefined) return;
    const field = patternProblem === undefined ? 'flags' : 'pattern';
    ctx.addIssue({ code: 'custom', path: [field], message: `invalid regex /${spec.pattern}/${spec.flags ?? ''}: ${problem}` });
  }),
  (spec, ctx) => {
    const result = safeRegex(spec.pattern, spec.flags).exec(ctx.reply);
    if (!result.ok) return { score: 0, message: result.message };
    const m = result.match;
    const head = `regex /${spec.pattern}/${spec.flags ?? ''}`;
    return {
      score: binary(m !== null),
      message: m ? `${head}: matched ${quote(m.text)} at char ${charAt(ctx.reply, m.index)}` : `${head}: no match in ${replySize(ctx.reply)}`,
    };
  },
);

export const lengthBetween = defineAssertion(
  assertionObject('lengthBetween', {
    min: z.number().int().nonnegative().optional(),
    max: z.number().int().nonnegative().optional(),
  }).superRefine((spec, ctx) => {
    if (spec.min === undefined && spec.max === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'lengthBetween needs at least one of min or max' });
    } else if (spec.min !== undefined && spec.max !== undefined && spec.min > spec.max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: `lengthBetween min ${spec.min} is greater than max ${spec.max}` });
    }
  }),
  (spec, ctx) => {
    const n = charLength(ctx.reply);
    const ok = (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
    return { score: binary(ok), message: `lengthBetween ${rangeText(spec.min, spec.max)}: reply has ${n} chars` };
  },
);

function regexError(pattern: string, flags?: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (e) {
    return errorMessage(e);
  }
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${min}..${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

export const textAssertions = [equals, contains, notContains, containsAll, containsAny, startsWith, endsWith, regex, lengthBetween] as const;
