// The red team's public face: the CLI builds an attack suite, runs it as an ordinary eval, and summarises it.
import type { Provider } from '../providers/types.js';
import type { Usage } from '../core/usage.js';
import { emptyUsage } from '../core/usage.js';
import type { Results } from '../core/results-schema.js';
import type { RedteamSummary } from '../core/redteam-schema.js';
import type { RedteamPlugin } from './plugin-types.js';
import type { RedteamTargetInfo } from './target-info.js';

export type { RedteamPlugin, AttackCase } from './plugin-types.js';
export type { RedteamTargetInfo } from './target-info.js';

export interface AttackSuiteOptions {
  targets: RedteamTargetInfo[];
  /** Plugin ids; absent: every plugin. */
  plugins?: string[];
  /** Attacks per plugin and target. */
  perPlugin: number;
  /** The attacker model; undefined: seeds only. */
  attacker?: Provider;
  signal?: AbortSignal;
}

/** The attack cases as one YAML eval suite (text), and what the attacker spent. */
export function attackSuite(opts: AttackSuiteOptions): Promise<{ yaml: string; attackerUsage: Usage; source: 'seeds' | 'attacker' }> {
  void opts;
  return Promise.resolve({ yaml: '', attackerUsage: emptyUsage(), source: 'seeds' });
}

/** Pure: the results' redteam section from a results document of a run of an attack suite. */
export function redteamSummary(results: Results, meta: { source: 'seeds' | 'attacker'; attacker?: string; attackerUsage: Usage }): RedteamSummary {
  void results;
  return { source: meta.source, attacker: meta.attacker, plugins: [], usage: { attacker: meta.attackerUsage, target: emptyUsage(), judge: emptyUsage() } };
}

/** The successful attacks as an ordinary eval file (YAML text) that `run` replays. */
export function findingsSuite(results: Results, attackYaml: string): string {
  void results;
  return attackYaml;
}

export const redteamPlugins: readonly RedteamPlugin[] = [];
