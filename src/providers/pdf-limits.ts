/**
 * How much PDF a model takes per request (capabilities.ts `PdfLimits`): its family's row, else its
 * wire's. Only for the provider whose docs the limits come from: an OpenAI-compatible server or a
 * gateway sets its own, which the run does not guess.
 */
import type { PdfLimits } from './capabilities.js';
import { familyRow } from './capability-lookup.js';
import type { ModelSpec } from './model-spec.js';
import { providerWire } from './wires.js';

export function pdfLimitsOf(spec: Pick<ModelSpec, 'provider' | 'model'>): PdfLimits | undefined {
  const wire = providerWire(spec.provider);
  if (wire.homeProvider !== spec.provider) return undefined;
  return familyRow(wire.id, spec.model)?.pdfLimits ?? wire.pdfLimits;
}

/** What a request's PDFs come to: their bytes, and their pages where every PDF's count could be read. */
export interface PdfLoad {
  bytes: number;
  pages: number | undefined;
}

/** Why `load` is over `limits`, naming each limit and its source; undefined when it fits. Pure. */
export function pdfLimitProblem(load: PdfLoad, limits: PdfLimits): string | undefined {
  const over: string[] = [];
  if (load.bytes > limits.maxBytes) over.push(`${megabytes(load.bytes)} MB of PDF (at most ${megabytes(limits.maxBytes)} MB)`);
  if (load.pages !== undefined && load.pages > limits.maxPages) over.push(`${load.pages} pages (at most ${limits.maxPages})`);
  if (!over.length) return undefined;
  return `${over.join(' and ')} per request; source: ${limits.source}, read ${limits.asOf}`;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
}
