import { SETTING_DIMENSIONS, type MatrixDimension, type MatrixValues, type TargetVariant } from '../core/matrix.js';
import type { TargetConfig } from '../targets/config-schema.js';
import type { TargetFunction } from '../targets/function-target.js';
import { TargetVariants } from './target-variants.js';

/** A matrix's values by dimension, as a suite's `matrix:` or `--matrix` gives them. */
export type MatrixAxes = { [D in MatrixDimension]?: string[] | undefined };

/** The command line's say over targets: `--target name` (one target, keys unchanged) or `--matrix dimension=a,b` (repeatable). */
export interface TargetOverride {
  target?: string;
  matrix?: MatrixAxes;
}

/** One run of a case: the target it runs against, its matrix values and where that target was named. */
export interface TargetChoice {
  target: string | TargetFunction;
  matrix?: MatrixValues;
  line?: number;
  /** A settings variant (`model`, `effort`, `instructions`): what it sets and the target config it builds. */
  variant?: TargetVariant & { spec: TargetConfig };
}

interface Where {
  suiteTarget?: number | undefined;
  matrix?: number | undefined;
  case: number | null;
  /** The eval file, for errors about its `matrix:`. */
  file?: string | undefined;
}

/**
 * The targets a case runs against, most specific first: the command line (`--target`, `--matrix`),
 * then the case's own `target`, then the suite's `matrix`, then the suite's `target`. The settings
 * dimensions (`model`, `effort`, `instructions`) multiply whatever target is chosen, each taken
 * from the command line, else from the suite's `matrix`.
 */
export function targetChoices(
  suite: { target?: string | TargetFunction | undefined; matrix?: MatrixAxes | undefined },
  c: { target?: string | undefined },
  where: Where,
  override: TargetOverride | undefined,
  /** The run's variants (made from the config's targets); without them no target is configured to vary. */
  variants?: TargetVariants,
): TargetChoice[] {
  const at = (line: number | null | undefined) => (line ? { line } : {});
  const targets: TargetChoice[] =
    override?.target !== undefined
      ? [{ target: override.target }]
      : override?.matrix?.target
        ? override.matrix.target.map((target) => ({ target, matrix: { target } }))
        : c.target !== undefined
          ? [{ target: c.target, ...at(where.case) }]
          : suite.matrix?.target
            ? suite.matrix.target.map((target) => ({ target, matrix: { target }, ...at(where.matrix) }))
            : [{ target: suite.target!, ...at(where.suiteTarget) }];
  const fromFlags = SETTING_DIMENSIONS.some((d) => override?.matrix?.[d]);
  const settings = settingCombinations(SETTING_DIMENSIONS.map((d) => [d, override?.matrix?.[d] ?? suite.matrix?.[d]] as const));
  if (!settings.length) return targets;
  const matrixWhere = fromFlags ? {} : { file: where.file, line: where.matrix };
  return targets.flatMap((t) =>
    settings.map((values) => {
      const matrix = { ...t.matrix, ...values };
      const v = (variants ??= new TargetVariants({}, '.')).of(t.target, matrix, matrixWhere);
      return { ...t, target: v.target, matrix, variant: { ...v.variant, spec: v.spec } };
    }),
  );
}

/** Every combination of the given dimensions' values, in the order given (the first varies slowest); none when no dimension has values. */
function settingCombinations(axes: ReadonlyArray<readonly [MatrixDimension, string[] | undefined]>): MatrixValues[] {
  const given = axes.filter((a): a is readonly [MatrixDimension, string[]] => a[1] !== undefined && a[1].length > 0);
  if (!given.length) return [];
  return given.reduce<MatrixValues[]>((combos, [d, values]) => combos.flatMap((combo) => values.map((v) => ({ ...combo, [d]: v }))), [{}]);
}
