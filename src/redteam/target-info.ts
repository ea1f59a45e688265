import type { TargetDescription } from '../targets/target-description.js';

/** What the red team reads of a target: its instructions and tools, and which tools are destructive or allowed. */
export interface RedteamTargetInfo extends TargetDescription {
  /** Tools that must not run without the user's confirmation (config, or guessed from names and descriptions). */
  destructiveTools: string[];
  /** The allowlist (`onlyTools`); absent: every offered tool. */
  allowedTools?: string[];
  /** The content policy `harmful-content` is judged against; absent: the built-in one. */
  policy?: string;
}
