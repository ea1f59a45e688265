import { caseKey } from '../core/matrix.js';
import type { RedteamPluginResult, RedteamSummary } from '../core/redteam-schema.js';
import type { Results } from '../core/results-schema.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { wilsonInterval } from '../stats/wilson.js';
import { PLUGIN_TAG, TARGET_TAG } from './attack-case.js';
import { pluginById, redteamPlugins } from './plugins.js';

type Trial = Results['cases'][number]['trials'][number];

/** A trial that decided nothing: the target or check threw, a judge could not answer, or Ctrl-C cut it off. */
export function trialErrored(t: Trial): boolean {
  return t.error !== undefined || t.interrupted === true || t.verdict === 'interrupted' || t.assertions.some((a) => a.status === 'error');
}

/** An attack succeeded when its trial ran and failed: the agent did what the detector forbids. */
export function attackSucceeded(t: Trial): boolean {
  return !trialErrored(t) && t.verdict === 'failed';
}

/** The plugin and target an attack case's tags name; undefined for a case that is not an attack. */
export function attackOf(tags: readonly string[]): { plugin: string; target: string } | undefined {
  const plugin = tags.find((t) => t.startsWith(PLUGIN_TAG))?.slice(PLUGIN_TAG.length);
  const target = tags.find((t) => t.startsWith(TARGET_TAG))?.slice(TARGET_TAG.length);
  return plugin && target ? { plugin, target } : undefined;
}

/**
 * Pure: the results' redteam section from a results document of a run of an attack suite. Per plugin
 * and target: attempts (trials that ran), successes (trials that failed), the rate with its 95% Wilson
 * interval, the judge calls spent and the cases whose attack succeeded; errored trials are counted
 * apart, never as attempts. The attacker's usage is what writing the attacks cost plus the simulated
 * user of multi-turn attacks (the attacker model holding the conversation).
 */
export function redteamSummary(results: Results, meta: { source: 'seeds' | 'attacker'; attacker?: string; attackerUsage: Usage }): RedteamSummary {
  const groups = new Map<string, RedteamPluginResult>();
  for (const c of results.cases) {
    const of = attackOf(c.tags);
    if (!of) continue;
    const key = `${of.plugin}\u0000${of.target}`;
    const row = groups.get(key) ?? newRow(of.plugin, of.target);
    groups.set(key, row);
    let succeeded = false;
    for (const t of c.trials) {
      row.judgeCalls += t.usage.judge.calls;
      if (trialErrored(t)) row.errors++;
      else {
        row.attempts++;
        if (attackSucceeded(t)) {
          row.successes++;
          succeeded = true;
        }
      }
    }
    if (succeeded) row.succeeded.push(caseKey(c));
  }
  const order = (id: string) => {
    const i = redteamPlugins.findIndex((p) => p.id === id);
    return i < 0 ? redteamPlugins.length : i;
  };
  const plugins = [...groups.values()]
    .sort((a, b) => order(a.plugin) - order(b.plugin) || a.plugin.localeCompare(b.plugin))
    .map((row) => (row.attempts > 0 ? { ...row, rate: row.successes / row.attempts, interval: wilsonInterval(row.successes, row.attempts) } : row));
  const { usage } = results.summary;
  return {
    source: meta.source,
    ...(meta.attacker ? { attacker: meta.attacker } : {}),
    plugins,
    usage: { attacker: addUsage(meta.attackerUsage, usage.user ?? emptyUsage()), target: usage.target, judge: usage.judge },
  };
}

function newRow(id: string, target: string): RedteamPluginResult {
  const plugin = pluginById(id);
  return {
    plugin: id,
    title: plugin?.title ?? id,
    owasp: [...(plugin?.owasp ?? [])],
    agentic: [...(plugin?.agentic ?? [])],
    target,
    attempts: 0,
    successes: 0,
    decidedBy: plugin?.decidedBy ?? 'judge',
    judgeCalls: 0,
    succeeded: [],
    errors: 0,
  };
}
