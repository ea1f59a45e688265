import { UserError } from '../../core/errors.js';
import type { FilePart } from '../../core/content-parts.js';
import { parseModelSpec } from '../../providers/model-spec.js';
import { pdfLimitProblem, pdfLimitsOf, type PdfLoad } from '../../providers/pdf-limits.js';
import type { PlannedCase } from '../../suite/plan.js';

/**
 * The cases whose PDFs are more than their model target's model takes per request (the capability
 * table's PDF limits), one error each, before any trial: the provider would refuse every trial of
 * it, after the run had paid for the calls before. A conversation's last request carries every PDF
 * its turns sent, so a case's load is all of them together.
 */
export function pdfLimitErrors(cases: readonly PlannedCase[], targetOf: (c: PlannedCase) => { name: string; model?: string | undefined }): UserError[] {
  const errors: UserError[] = [];
  for (const c of cases) {
    const load = pdfLoadOf(c);
    if (!load) continue;
    const target = targetOf(c);
    const limits = target.model !== undefined ? limitsOf(target.model) : undefined;
    const problem = limits && pdfLimitProblem(load, limits);
    if (problem) {
      errors.push(new UserError(`target "${target.name}" (${target.model}) cannot take this case's PDFs: ${problem}`, { file: c.file, ...(c.line ? { line: c.line } : {}), field: 'input' }));
    }
  }
  return errors;
}

function pdfLoadOf(c: PlannedCase): PdfLoad | undefined {
  const files = new Set<FilePart>();
  for (const parts of [c.parts, ...(c.turns ?? []).map((t) => t.parts)]) for (const p of parts ?? []) if (p.type === 'file') files.add(p);
  if (!files.size) return undefined;
  let bytes = 0;
  let pages: number | undefined = 0;
  for (const f of files) {
    bytes += f.bytes;
    pages = pages !== undefined && f.pages !== undefined ? pages + f.pages : undefined;
  }
  return { bytes, pages };
}

function limitsOf(model: string) {
  try {
    return pdfLimitsOf(parseModelSpec(model));
  } catch {
    return undefined;
  }
}
