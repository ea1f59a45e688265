import { z } from 'zod';
import { InputPartSchema, textOfParts, type InputPart } from '../../core/content-parts.js';
import { UserError } from '../../core/errors.js';
import { resolveInputParts } from '../../suite/input-parts.js';
import { formatPath } from '../../suite/zod-issues.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { SentMessage } from '../../suite/check-api.js';

const SentPartsSchema = z.array(InputPartSchema).min(1);

/**
 * A `t.send()` message made ready for the target: text as it is; content parts checked by the
 * schema of a case's `input` and read as the case's own are (paths relative to the eval file), so a
 * bad part is the same UserError, naming the file, the case's line and `t.send (turn n)`. It comes
 * while the trial runs (the check decides what it sends), so it fails that trial, not the run.
 */
export function sentMessage(message: SentMessage, c: Pick<PlannedCase, 'file' | 'line' | 'partsDir'>, turn: number): { text: string; parts?: InputPart[] } {
  if (typeof message === 'string') return { text: message };
  const where = { file: c.file, ...(c.line ? { line: c.line } : {}) };
  const field = `t.send (turn ${turn})`;
  const parsed = SentPartsSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const why = Array.isArray(message) ? issue.message : 'takes a string or an array of content parts';
    throw new UserError(why, { ...where, field: `${field}${issue.path.length ? `.${formatPath(issue.path).replace(/^\[(\d+)\]/, '$1')}` : ''}` });
  }
  const parts = resolveInputParts(parsed.data, { dir: c.partsDir ?? '.', ...where, field });
  return { text: textOfParts(parts), parts };
}
