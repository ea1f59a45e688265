/**
 * The Gemini API's model families, the Gemini API wire's rows of the capability table (model-table.ts
 * lists them), each with where it was read and when; their prices are in price-table.ts.
 */
import type { ModelCapabilities, ModelFamilyRow } from '../../capabilities.js';
import { GEMINI_TABLE } from './facts.js';

const READ = '2026-12-04';

/** Gemini 3 thinking levels (`thinkingConfig.thinkingLevel`), lower-cased as `reasoningEffort` takes them. */
const LEVELS_FROM_MINIMAL = ['minimal', 'low', 'medium', 'high'];
const LEVELS_FROM_LOW = ['low', 'medium', 'high'];
/** Gemini 2.5 Flash and Flash-Lite: `none` is `thinkingBudget: 0`, thinking off (Pro cannot turn it off). */
const BUDGET_OFF = ['none'];

function gemini(family: string, thinking: ModelCapabilities['thinking'], rest: Pick<ModelCapabilities, 'reasoningEfforts' | 'maxOutputTokens'>, source: string, prefix = false): ModelFamilyRow {
  return { wire: GEMINI_TABLE.id, family, ...(prefix ? { prefix } : {}), capabilities: { ...GEMINI_TABLE.defaultCapabilities, thinking, ...rest }, source, asOf: READ };
}

const GUIDE_38 = "Google Cloud docs: Developer's guide to Gemini 3.8 Flash (comparison of 3.8 Flash, 3.7 Flash and 3.1 Pro: thinking levels, maximum output)";

/**
 * Every Gemini 3 model thinks (a level, never off: `minimal` still may think); none takes a budget
 * and a level at once. Sampling parameters are taken, though the docs advise leaving them at their
 * defaults on Gemini 3 (Gemini API docs: Gemini 3 developer guide, read 2026-12-04).
 */
export const GEMINI_ROWS: readonly ModelFamilyRow[] = [
  // The line: an unknown gemini-3.x id (3.7 Flash, 3.6 Flash, a next one) gets the newest Flash's rules.
  gemini('gemini-3', 'always', { reasoningEfforts: LEVELS_FROM_LOW, maxOutputTokens: 65_536 }, `${GUIDE_38} (line rule: newest Flash)`, true),
  gemini('gemini-3.8-flash', 'always', { reasoningEfforts: LEVELS_FROM_LOW, maxOutputTokens: 65_536 }, `${GUIDE_38}: LOW, MEDIUM, HIGH (default MEDIUM)`),
  gemini('gemini-3.1-pro-preview', 'always', { reasoningEfforts: LEVELS_FROM_LOW, maxOutputTokens: 65_536 }, `${GUIDE_38}: LOW, MEDIUM, HIGH (default HIGH)`),
  gemini(
    'gemini-3.5-flash',
    'always',
    { reasoningEfforts: LEVELS_FROM_MINIMAL, maxOutputTokens: 65_536 },
    "Google Cloud docs: Developer's guide to Gemini 3.5 Flash: MINIMAL to HIGH (default MEDIUM); Gemini API docs: What's new in Gemini 3.5 Flash (deprecated, served by 3.6 Flash)",
  ),
  gemini(
    'gemini-3.1-flash-lite',
    'always',
    { reasoningEfforts: LEVELS_FROM_MINIMAL, maxOutputTokens: 65_536 },
    "Google Cloud docs: Developer's guide to Gemini 3.5 Flash, comparison with 3.1 Flash-Lite: MINIMAL to HIGH (default MINIMAL)",
  ),
  gemini(
    'gemini-3-flash-preview',
    'always',
    { reasoningEfforts: LEVELS_FROM_MINIMAL, maxOutputTokens: 65_536 },
    'Gemini API docs: Thinking, thinking levels (Gemini 3 Flash: minimal, low, medium, high)',
  ),
  gemini('gemini-2.5-pro', 'always', { maxOutputTokens: 65_536 }, 'Gemini API docs: Thinking, thinking budgets (2.5 Pro cannot turn thinking off)'),
  gemini(
    'gemini-2.5-flash',
    'default-on',
    { reasoningEfforts: BUDGET_OFF, maxOutputTokens: 65_536 },
    'Gemini API docs: Thinking, thinking budgets (2.5 Flash thinks by default; budget 0 turns it off)',
  ),
  gemini(
    'gemini-2.5-flash-lite',
    'optional',
    { reasoningEfforts: BUDGET_OFF, maxOutputTokens: 65_536 },
    'Gemini API docs: Thinking, thinking budgets (2.5 Flash-Lite does not think unless given a budget)',
  ),
];

/** Line rows name no model, so they have no price. */
export const GEMINI_LINES = ['google:gemini-3'] as const;
