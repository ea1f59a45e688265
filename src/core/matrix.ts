import { z } from 'zod';

/**
 * The dimensions a suite or `--matrix` may vary: `target` picks the target; the settings dimensions
 * vary a model-agent target's model spec, reasoning effort and instructions (suite/target-variants.ts).
 */
export const MATRIX_DIMENSIONS = ['target', 'model', 'effort', 'instructions'] as const;
export type MatrixDimension = (typeof MATRIX_DIMENSIONS)[number];

/** The dimensions that vary a model-agent target's settings rather than pick the target. */
export const SETTING_DIMENSIONS = ['model', 'effort', 'instructions'] as const satisfies readonly MatrixDimension[];
export type SettingDimension = (typeof SETTING_DIMENSIONS)[number];

/** One case's matrix values, by dimension (`{ target: 'claude-support' }`, `{ model: 'gpt-5.5', effort: 'low' }`). */
export const MatrixValuesSchema = z.partialRecord(z.enum(MATRIX_DIMENSIONS), z.string());
export type MatrixValues = z.infer<typeof MatrixValuesSchema>;

/** `dimension=value,…` of the given dimensions, in MATRIX_DIMENSIONS order. */
function pairs(matrix: MatrixValues | undefined, dims: readonly MatrixDimension[]): string {
  return MATRIX_DIMENSIONS.flatMap((d) => (dims.includes(d) && matrix?.[d] !== undefined ? [`${d}=${matrix[d]}`] : [])).join(',');
}

/** ` [target=claude-support]`, ` [model=gpt-5.5,effort=low]`, or '' for a case outside any matrix. */
export function matrixSuffix(matrix: MatrixValues | undefined): string {
  const parts = pairs(matrix, MATRIX_DIMENSIONS);
  return parts ? ` [${parts}]` : '';
}

/** `suite/id [target=…]`: what --filter, baselines and reporters tell cases apart by. */
export function caseKey(c: { suite: string; id: string; matrix?: MatrixValues | undefined }): string {
  return `${c.suite}/${c.id}${matrixSuffix(c.matrix)}`;
}

/**
 * A settings variant's name, the target it varies with its settings: `agent[model=gpt-5.5,effort=low]`.
 * It names the variant's target in every report; with no settings dimension it is the target's own name.
 */
export function variantName(target: string, matrix: MatrixValues | undefined): string {
  const settings = pairs(matrix, SETTING_DIMENSIONS);
  return settings ? `${target}[${settings}]` : target;
}

/** The dimensions a case's matrix varies, as a comparison table names them (`target`, `model × effort`). */
export function matrixDimensions(matrix: MatrixValues | undefined): string {
  return MATRIX_DIMENSIONS.filter((d) => matrix?.[d] !== undefined).join(' × ');
}

/**
 * A settings variant of a model-agent target, as results record it: its name, the target it varies
 * and the settings it runs with (`model` as `provider:model`, `instructions` as given: `@file` or text).
 */
export const TargetVariantSchema = z.object({
  name: z.string(),
  target: z.string(),
  model: z.string().optional(),
  effort: z.string().optional(),
  instructions: z.string().optional(),
});
export type TargetVariant = z.infer<typeof TargetVariantSchema>;
