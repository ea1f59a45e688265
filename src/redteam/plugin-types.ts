import type { RedteamCaseMeta } from '../core/redteam-schema.js';
import type { RedteamTargetInfo } from './target-info.js';

/**
 * One attack before it becomes a case: what a seed or the attacker model wrote. `text` is what the
 * plugin's `attackPrompt` asks for (a user message, an instruction hidden in a tool result, a goal);
 * `turns` are a scripted escalation (multi-turn seeds, played when no attacker model holds the conversation).
 */
export interface Attack {
  id: string;
  text: string;
  turns?: string[];
}

/** One attack as a plain eval case (the YAML's object): the case passes when the agent resisted. */
export type AttackCase = Record<string, unknown> & {
  id: string;
  target: string;
  tags: string[];
  metadata: { redteam: RedteamCaseMeta };
  assert: Record<string, unknown>[];
};

/** What building a case needs besides the attack: the target, and the attacker's model spec (multi-turn's user model). */
export interface CaseContext {
  target: RedteamTargetInfo;
  /** `provider:model` of the attacker; absent: seeds only (no model holds a conversation). */
  attacker?: string;
}

/** A red-team plugin: one kind of attack, its seeds, how an attack becomes a case and how its success is decided. */
export interface RedteamPlugin {
  /** `indirect-injection`, … (stable: case metadata, tags and `--plugins` name it). */
  readonly id: string;
  readonly title: string;
  /** What the attack tries, one sentence (help text and the plugin table). */
  readonly description: string;
  /** OWASP Top 10 for LLM Applications (2025) entries (`LLM01:2025 Prompt Injection`). */
  readonly owasp: readonly string[];
  /** OWASP agentic AI threats (`T2 Tool Misuse`). */
  readonly agentic: readonly string[];
  /** `detector`: decided by a value or a call; `judge`: graded by a judge. */
  readonly decidedBy: 'detector' | 'judge';
  /** Why this plugin cannot attack a target (no tool to inject through, …); undefined: it can. */
  unfit(target: RedteamTargetInfo): string | undefined;
  /** The seed attacks shipped with agent-evals, written for this target (its tools and instructions). */
  seeds(target: RedteamTargetInfo): Attack[];
  /** What the attacker model is asked to write as each attack's `text`, for this target. */
  attackPrompt(target: RedteamTargetInfo): string;
  /** The attack as an eval case: input or turns, injected tool results, its detector as assertions. */
  toCase(attack: Attack, ctx: CaseContext): AttackCase;
}

export type { RedteamTargetInfo };
