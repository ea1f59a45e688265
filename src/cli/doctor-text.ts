import type { ModelCapabilities } from '../providers/capabilities.js';
import type { Price } from '../providers/pricing.js';
import type { DoctorModel, DoctorReport } from './doctor-report.js';
import { pushAll } from '../core/push-all.js';
import { largest } from '../core/extremes.js';

const LABEL = 14;
const row = (label: string, text: string) => `  ${label.padEnd(LABEL)}${text}`;

/** The report as the terminal shows it: one block per model, then who is known only as it runs, then the live checks. */
export function doctorText(report: DoctorReport, live: boolean): string {
  const lines: string[] = [];
  const where = report.config ?? 'the defaults (no config file)';
  lines.push(`Models a run of ${where} would call${live ? '' : ' (offline: no request made; --live checks each one)'}:`);
  if (report.models.length === 0) lines.push('  none');
  for (const m of report.models) pushAll(lines, ['', ...modelBlock(m)]);
  if (report.notes.length > 0) pushAll(lines, ['', 'Known only as they run:', ...report.notes.map((n) => `  ${n}`)]);
  lines.push('');
  if (live) pushAll(lines, liveLines(report.models));
  const n = report.models.length;
  const missing = report.missingKeys.length;
  lines.push(`${n} model${n === 1 ? '' : 's'}${missing ? `; ${missing} key${missing === 1 ? '' : 's'} missing: ${report.missingKeys.join(', ')}` : ''}`);
  return lines.join('\n') + '\n';
}

function modelBlock(m: DoctorModel): string[] {
  return [
    m.model,
    row('used by', m.usedBy.join('; ')),
    row('endpoint', `${m.baseURL} (${m.baseURLFrom === 'default' ? `${m.provider} default` : `from the ${m.baseURLFrom}`})`),
    ...(m.api !== undefined ? [row('api', m.api)] : []),
    row('proxy', m.proxy.proxy ? `${m.proxy.proxy} (${m.proxy.because})` : `none, direct (${m.proxy.because})`),
    row('key', `${m.keyEnv}${m.keyFrom === 'environment' ? '' : ` (in the agent judge's options.env)`}: ${m.keyPresent ? 'set' : m.keyRequired ? 'missing' : keyNotNeeded(m)}`),
    row('called with', m.embeddings ? 'embeddings requests (similarTo)' : calledWith(m.capabilities, m.reasoningEffort, m.judge, m.tools, m.tokenField)),
    row('price', m.price ? priceText(m.price) : 'unknown price (add it under `pricing` in the config)'),
    ...m.notes.map((n) => row('note', n)),
    ...(m.refused !== undefined ? [row('refused', `${m.refused} (a run stops before its first call, exit 2)`)] : []),
  ];
}

/** Why an unset key is fine: a local server takes none; a cloud provider signs with its credential chain. */
function keyNotNeeded(m: DoctorModel): string {
  return m.credentials !== undefined ? `not set (the calls are signed with ${m.credentials})` : 'not set (not needed: a local server)';
}

/** The capabilities requests to the model carry; the structured-output mode only where a judge asks for one, tools where a caller offers them. */
export function calledWith(c: ModelCapabilities, effort: string | undefined, judge: boolean, tools = 0, tokenField: string = c.tokenParam): string {
  const parts = [
    ...(tools > 0 ? [`${tools} function tool${tools === 1 ? '' : 's'}`] : []),
    `sampling ${c.sampling}`,
    ...(judge ? [`structured output ${c.structuredOutput}`] : []),
    `thinking ${c.thinking}`,
    `token limit ${tokenField}`,
    `reasoning effort ${effort ?? (c.reasoningEfforts?.length ? 'the provider default' : 'none')}`,
  ];
  return parts.join(' · ');
}

export function priceText(p: Price): string {
  const usd = (x: number) => `$${x}`;
  return `${usd(p.input)} input${p.cachedInput !== undefined ? `, ${usd(p.cachedInput)} cached input` : ''}, ${usd(p.output)} output per 1M tokens`;
}

function liveLines(models: DoctorModel[]): string[] {
  const lines = ["Live check (one short request per model as the run sends it, with its callers' tools; one structured answer per judge model; one embedding per embedding model):"];
  const width =
    largest(
      models.map((m) => m.model.length),
      0,
    ) + 2;
  for (const m of models) {
    const failures = m.live ?? [];
    if (failures.length === 0) {
      lines.push(`  ${m.model.padEnd(width)}OK`);
      continue;
    }
    for (const f of failures) {
      lines.push(`  ${m.model.padEnd(width)}FAILED (${f.step}): ${f.message}`);
      if (f.hint) lines.push(`  ${' '.repeat(width)}fix: ${f.hint}`);
    }
  }
  const failed = models.filter((m) => (m.live ?? []).length > 0).length;
  if (failed) lines.push(`${failed} of ${models.length} model${models.length === 1 ? '' : 's'} failed the live check`);
  const refused = models.filter((m) => m.refused !== undefined).length;
  if (refused) lines.push(`${refused} of ${models.length} model${models.length === 1 ? '' : 's'} refused before the first call by a run (see \`refused\` above)`);
  lines.push('');
  return lines;
}
