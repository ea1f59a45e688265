/**
 * The README's provider list, rendered from the registry: `npm run readme-providers` writes it
 * between the markers below, and a test fails when the README's copy differs.
 */
import { PROVIDERS, type ProviderDescriptor } from './registry.js';

export const PROVIDER_LIST_START = '<!-- providers:start (generated from src/providers/registry.ts by `npm run readme-providers`) -->';
export const PROVIDER_LIST_END = '<!-- providers:end -->';

export function providerListMarkdown(): string {
  const rows = PROVIDERS.map((p) => `| \`${p.id}\` | ${p.label} | ${keyCell(p)} | ${endpointCell(p)} | ${p.batch ? 'yes' : 'no (live)'} | ${quirksCell(p)} |`);
  return ['| provider | server | key | endpoint (variable, default) | `--judge-batch` | quirks |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The README's text with its provider list replaced by the registry's; undefined when the markers are missing. */
export function withProviderList(readme: string): string | undefined {
  const start = readme.indexOf(PROVIDER_LIST_START);
  const end = readme.indexOf(PROVIDER_LIST_END);
  if (start < 0 || end < start) return undefined;
  return `${readme.slice(0, start)}${PROVIDER_LIST_START}\n${providerListMarkdown()}\n${readme.slice(end)}`;
}

function keyCell(p: ProviderDescriptor): string {
  return p.keyRequired ? `\`${p.keyEnv}\`` : `\`${p.keyEnv}\` (optional)`;
}

/** The README names no URL outside the machine: a hosted default is named by its provider. */
function endpointCell(p: ProviderDescriptor): string {
  if (!p.defaultBaseURL) return `\`${p.baseURLEnv}\`, required (no default)`;
  return `\`${p.baseURLEnv}\`, ${p.local ? `\`${p.defaultBaseURL}\`` : `${p.label.replace(/ \(.*\)$/, '')}'s API`}`;
}

function quirksCell(p: ProviderDescriptor): string {
  const parts = Object.entries(p.quirks ?? {}).map(([k, v]) => `${k}: \`${String(v)}\``);
  if (p.local) parts.push('free (local)');
  return parts.length > 0 ? parts.join(', ') : '—';
}
