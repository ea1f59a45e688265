/**
 * The provider table of docs/reference/providers.md, rendered from the registry: `npm run docs`
 * writes it, and a test fails when the page's copy differs.
 */
import { PROVIDERS, type ProviderDescriptor } from './registry.js';

export function providerListMarkdown(): string {
  const rows = PROVIDERS.map((p) => `| \`${p.id}\` | ${p.label} | ${keyCell(p)} | ${endpointCell(p)} | ${p.batch ? 'yes' : 'no (live)'} | ${quirksCell(p)} |`);
  return ['| provider | server | key | endpoint (variable, default) | `--judge-batch` | quirks |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

function keyCell(p: ProviderDescriptor): string {
  if (p.credentials) return `\`${p.keyEnv}\` (optional); credentials: ${p.credentials}`;
  return p.keyRequired ? `\`${p.keyEnv}\`` : `\`${p.keyEnv}\` (optional)`;
}

/** The docs name no URL outside the machine: a hosted default is named by its provider. */
function endpointCell(p: ProviderDescriptor): string {
  if (p.region) return `\`${p.baseURLEnv}\`, else its region's (\`${p.region.env}\`${p.region.default ? `, default \`${p.region.default}\`` : ', required'})`;
  if (!p.defaultBaseURL) return `\`${p.baseURLEnv}\`, required (no default)`;
  return `\`${p.baseURLEnv}\`, ${p.local ? `\`${p.defaultBaseURL}\`` : `${p.label.replace(/ \(.*\)$/, '')}'s API`}`;
}

function quirksCell(p: ProviderDescriptor): string {
  const parts = Object.entries(p.quirks ?? {}).map(([k, v]) => `${k}: \`${String(v)}\``);
  if (p.local) parts.push('free (local)');
  return parts.length > 0 ? parts.join(', ') : '—';
}
