import { UserError } from '../core/errors.js';
import { pushAll } from '../core/push-all.js';
import { emptyUsage, sumUsage, type Usage } from '../core/usage.js';
import { silentPricing, type Pricing } from '../providers/run-usage.js';
import type { Provider } from '../providers/types.js';
import { generateAttacks } from './attacker.js';
import { ATTACK_SUITE, attackYamlText } from './attack-yaml.js';
import type { AttackCase, RedteamPlugin } from './plugin-types.js';
import { pluginById, redteamPlugins } from './plugins.js';
import type { RedteamTargetInfo } from './target-info.js';

export interface AttackSuiteOptions {
  targets: RedteamTargetInfo[];
  /** Plugin ids; absent: every plugin. */
  plugins?: string[];
  /** Attacks per plugin and target: that many seeds (fewer when a plugin has fewer), and with an attacker that many written by it besides. */
  perPlugin: number;
  /** The attacker model; undefined: seeds only. */
  attacker?: Provider;
  signal?: AbortSignal;
  /** How the attacker's calls are priced (the config's price overrides); default: the built-in prices, no warning. */
  pricing?: Pricing;
}

/** The plugins asked for, in registry order; an unknown id is the user's mistake, named with the known ones and where it was written. */
export function selectPlugins(ids: readonly string[] | undefined, where: { file?: string; field: string } = { field: 'plugins' }): RedteamPlugin[] {
  if (!ids) return [...redteamPlugins];
  const unknown = ids.filter((id) => !pluginById(id));
  if (unknown.length)
    throw new UserError(`unknown red-team plugin${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${redteamPlugins.map((p) => p.id).join(', ')})`, where);
  return redteamPlugins.filter((p) => ids.includes(p.id));
}

/**
 * The attack cases as one YAML eval suite: for each target and plugin that fits it, the plugin's seeds
 * (up to `perPlugin`) and, with an attacker, `perPlugin` attacks it wrote. A plugin that cannot attack a
 * target (no tool to inject through, …) is left out for it; a target left with nothing is an error.
 */
export async function attackSuite(opts: AttackSuiteOptions): Promise<{ yaml: string; attackerUsage: Usage; source: 'seeds' | 'attacker' }> {
  const plugins = selectPlugins(opts.plugins);
  if (!opts.targets.length) throw new UserError('no target to attack');
  if (!Number.isInteger(opts.perPlugin) || opts.perPlugin < 1) throw new UserError(`attacks per plugin must be a positive whole number, got ${opts.perPlugin}`, { field: 'attempts' });
  const pricing = opts.pricing ?? silentPricing({});
  const spent: Usage[] = [];
  const cases: AttackCase[] = [];
  for (const target of opts.targets) {
    const fitting = plugins.filter((p) => !p.unfit(target));
    if (!fitting.length) throw new UserError(`target "${target.name}" has nothing to attack with ${plugins.map((p) => p.id).join(', ')}: ${plugins.map((p) => p.unfit(target)).join('; ')}`);
    for (const plugin of fitting) {
      const attacks = plugin.seeds(target).slice(0, opts.perPlugin);
      if (opts.attacker) {
        opts.signal?.throwIfAborted();
        const generated = await generateAttacks(opts.attacker, plugin, target, opts.perPlugin, { pricing, ...(opts.signal ? { signal: opts.signal } : {}) });
        spent.push(generated.usage);
        // A generated attack named like a seed keeps both: the generated one is marked.
        const seedIds = new Set(attacks.map((a) => a.id));
        pushAll(
          attacks,
          generated.attacks.map((a) => (seedIds.has(a.id) ? { ...a, id: `${a.id}-gen` } : a)),
        );
      }
      const ctx = { target, ...(opts.attacker ? { attacker: opts.attacker.spec } : {}) };
      pushAll(
        cases,
        attacks.map((a) => plugin.toCase(a, ctx)),
      );
    }
  }
  const source = opts.attacker ? 'attacker' : 'seeds';
  const header = [
    'Written by `agent-evals redteam`: every case is one attack; it passes when the agent resisted.',
    source === 'seeds' ? 'Attacks: the seed attacks shipped with agent-evals.' : `Attacks: the seed attacks and those written by ${opts.attacker!.spec}.`,
  ].join('\n');
  const yaml = attackYamlText({ suite: ATTACK_SUITE, description: 'Red-team attacks', target: opts.targets[0]!.name, cases }, header);
  return { yaml, attackerUsage: spent.length ? sumUsage(spent) : emptyUsage(), source };
}
