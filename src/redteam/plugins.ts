import type { RedteamPlugin } from './plugin-types.js';
import { directInjection } from './plugins/direct-injection.js';
import { multiTurn } from './plugins/multi-turn.js';
import { indirectInjection } from './plugins/indirect-injection.js';
import { promptExtraction } from './plugins/prompt-extraction.js';
import { excessiveAgency } from './plugins/excessive-agency.js';
import { crossUserLeakage } from './plugins/cross-user-leakage.js';
import { harmfulContent } from './plugins/harmful-content.js';

/** Every red-team plugin, one descriptor each: `--plugins`, the help text, the docs table and the summary derive from this list. */
export const redteamPlugins: readonly RedteamPlugin[] = [directInjection, multiTurn, indirectInjection, promptExtraction, excessiveAgency, crossUserLeakage, harmfulContent];

/** The plugin of an id, or undefined. */
export function pluginById(id: string): RedteamPlugin | undefined {
  return redteamPlugins.find((p) => p.id === id);
}
