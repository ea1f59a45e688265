import { UserError } from '../core/errors.js';
import { scaleOf, type CalibrationCriterion } from '../judges/calibration-schema.js';
import { lacksReference } from '../judges/spec.js';
import type { LabelSet } from './labels.js';

/** Checks what only the rows can tell (a reference a criterion needs, a human score on the scale), before any judgment. */
export function checkRows(labels: LabelSet, criterion: CalibrationCriterion): void {
  const max = scaleOf(criterion);
  for (const row of labels.rows) {
    if (lacksReference({ type: criterion.type }, row.reference))
      throw new UserError(`--type ${criterion.type} grades against a reference: this row has none`, { file: labels.file, line: row.line, field: 'reference' });
    if (row.humanScore !== undefined && (row.humanScore < 0 || row.humanScore > max)) {
      throw new UserError(`${row.humanScore} is outside the scale 0..${max}${max === 1 && criterion.scale === 1 ? ' (pass --scale 10 for 10-point scores)' : ''}`, {
        file: labels.file,
        line: row.line,
        field: 'humanScore',
      });
    }
  }
}
