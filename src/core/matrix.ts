import { z } from 'zod';

/**
 * The dimensions a suite or `--matrix` may vary. Only `target` today; another dimension is one more
 * name here and one more place in planning that reads it.
 */
export const MATRIX_DIMENSIONS = ['target'] as const;

/** One case's matrix values, by dimension (`{ target: 'claude-support' }`). */
export const MatrixValuesSchema = z.partialRecord(z.enum(MATRIX_DIMENSIONS), z.string());
export type MatrixValues = z.infer<typeof MatrixValuesSchema>;

/** ` [target=claude-support]`, or '' for a case outside any matrix. */
export function matrixSuffix(matrix: MatrixValues | undefined): string {
  const parts = MATRIX_DIMENSIONS.flatMap((d) => (matrix?.[d] !== undefined ? [`${d}=${matrix[d]}`] : []));
  return parts.length ? ` [${parts.join(',')}]` : '';
}

/** `suite/id [target=…]`: what --filter, baselines and reporters tell cases apart by. */
export function caseKey(c: { suite: string; id: string; matrix?: MatrixValues | undefined }): string {
  return `${c.suite}/${c.id}${matrixSuffix(c.matrix)}`;
}
