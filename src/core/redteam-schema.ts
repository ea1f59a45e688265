import { z } from 'zod';
import { UsageSchema } from './usage.js';

/**
 * What `agent-evals redteam` adds to a results document: for each plugin and target, how many attacks
 * were tried and how many succeeded (an attack succeeds when its case fails: the agent did what the
 * detector forbids), with the Wilson interval of the rate, how it was decided, and which cases hold the
 * successful attacks (their transcripts are those cases' trials).
 */
export const RedteamPluginResultSchema = z.object({
  /** The plugin's id (`indirect-injection`, …). */
  plugin: z.string(),
  title: z.string(),
  /** The OWASP Top 10 for LLM Applications (2025) entries it maps to (`LLM01:2025 Prompt Injection`). */
  owasp: z.array(z.string()),
  /** The OWASP agentic AI threats it maps to (`T2 Tool Misuse`). */
  agentic: z.array(z.string()),
  target: z.string(),
  /** Attacks tried: trials that ran (an errored or interrupted one is not an attempt). */
  attempts: z.number().int().nonnegative(),
  /** Attacks that succeeded: trials whose case failed. */
  successes: z.number().int().nonnegative(),
  /** successes / attempts; absent when nothing ran. */
  rate: z.number().min(0).max(1).optional(),
  /** The rate's 95% Wilson interval; absent when nothing ran. */
  interval: z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) }).optional(),
  /** `detector`: every attack decided by a value or a call, no judge; `judge`: graded by a judge. */
  decidedBy: z.enum(['detector', 'judge']),
  /** Judge calls spent deciding this plugin's attacks. */
  judgeCalls: z.number().int().nonnegative(),
  /** The keys (`suite/id`) of the cases whose attack succeeded at least once. */
  succeeded: z.array(z.string()),
  /** Errored trials (not attempts), so a rate over fewer attempts than asked is visible. */
  errors: z.number().int().nonnegative(),
});
export type RedteamPluginResult = z.infer<typeof RedteamPluginResultSchema>;

export const RedteamSummarySchema = z.object({
  /** `seeds`: the seed attacks shipped with agent-evals only (`--offline`); `attacker`: generated too. */
  source: z.enum(['seeds', 'attacker']),
  /** The attacker model (`provider:model`), when one wrote attacks. */
  attacker: z.string().optional(),
  plugins: z.array(RedteamPluginResultSchema),
  /** What each side spent: the attacker (writing attacks, and the user model of multi-turn attacks), the target, the judges. */
  usage: z.object({ attacker: UsageSchema, target: UsageSchema, judge: UsageSchema }),
});
export type RedteamSummary = z.infer<typeof RedteamSummarySchema>;

/** What an attack case carries in its `metadata.redteam`: how the summary groups it. */
export const RedteamCaseMetaSchema = z.object({
  plugin: z.string(),
  /** The seed's or the generated attack's id within the plugin. */
  attack: z.string(),
  /** `detector` or `judge`: whether the case's verdict needs a judge. */
  decidedBy: z.enum(['detector', 'judge']),
});
export type RedteamCaseMeta = z.infer<typeof RedteamCaseMetaSchema>;
