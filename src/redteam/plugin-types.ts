import type { RedteamCaseMeta } from '../core/redteam-schema.js';
import type { RedteamTargetInfo } from './target-info.js';

/** One attack as a plain eval case (YAML-ready object): the case passes when the agent resisted. */
export type AttackCase = Record<string, unknown> & {
  id: string;
  metadata: { redteam: RedteamCaseMeta } & Record<string, unknown>;
};

/** A red-team plugin: one kind of attack, how it is built into cases and how its success is decided. */
export interface RedteamPlugin {
  /** `indirect-injection`, … (kebab-case, stable: case metadata and `--plugins` name it). */
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
}

export type { RedteamTargetInfo };
