import { JUDGED_ASSERTIONS, type JudgeAssertionSpec, type JudgedAssertionDescriptor } from './spec.js';

type Calibrated = Extract<(typeof JUDGED_ASSERTIONS)[number], { calibration: object }>;
/** A judged type `agent-evals calibrate --type` takes. */
export type CalibrationType = Calibrated['schema']['shape']['type']['value'];

/** The types of a registry's descriptors that have `calibration`, in its order. */
export function calibrationTypesOf(registry: readonly JudgedAssertionDescriptor[]): string[] {
  return registry.filter((d) => d.calibration !== undefined).map((d) => d.schema.shape.type.value);
}

/** The judged types a labelled row can be graded with (pairwise needs two outputs); the first is calibrate's default. */
export const CALIBRATION_TYPES = calibrationTypesOf(JUDGED_ASSERTIONS) as [CalibrationType, ...CalibrationType[]];

const byType: ReadonlyMap<string, JudgedAssertionDescriptor> = new Map(JUDGED_ASSERTIONS.map((d) => [d.schema.shape.type.value, d]));

/** The field `--criteria` fills for the type (undefined: it takes no criteria). */
export function criteriaFieldOf(type: CalibrationType): 'criteria' | 'question' | undefined {
  return byType.get(type)?.calibration?.criteria;
}

/** Whether the type grades by a rubric on a scale (its schema has `scale`: `--scale 10` applies); the others answer a choice worth 0 or 1. */
export function isRubricType(type: CalibrationType): boolean {
  const d = byType.get(type);
  return d !== undefined && 'scale' in d.schema.shape;
}

/** The assertion an eval file would write to judge a labelled row so: `--criteria` in the type's field, a rubric's scale. */
export function calibrationSpec(c: { type: CalibrationType; criteria?: string | undefined; scale: 1 | 10 }): JudgeAssertionSpec {
  const field = criteriaFieldOf(c.type);
  const written = { type: c.type, ...(field ? { [field]: c.criteria ?? '' } : {}), ...(isRubricType(c.type) ? { scale: c.scale } : {}) };
  // Read by the type's own schema: what a new calibrating type needs but is not given fails here, not in a judge.
  return byType.get(c.type)!.schema.parse(written) as JudgeAssertionSpec;
}

/** `--type`'s help: `judge (default) | judgeAgainst | …`. */
export function calibrationTypeHelp(types: readonly string[]): string {
  return types.map((t, i) => (i === 0 ? `${t} (default)` : t)).join(' | ');
}

/** What `calibrate` says when `--type` takes criteria and none were given. */
export function missingCriteriaMessage(type: CalibrationType): string {
  if (criteriaFieldOf(type) === 'question') return `--type ${type} needs --criteria "<the question to ask of each output>"`;
  return `give --criteria "<rubric>" (or --type ${CALIBRATION_TYPES.filter((t) => criteriaFieldOf(t) !== 'criteria').join(', ')})`;
}
