import type { MatrixValues } from '../core/matrix.js';
import type { TargetFunction } from '../targets/function-target.js';

/** The command line's say over targets: `--target name` (one target, keys unchanged) or `--matrix target=a,b`. */
export interface TargetOverride {
  target?: string;
  matrix?: { target: string[] };
}

/** One run of a case: the target it runs against, its matrix values and where that target was named. */
export interface TargetChoice {
  target: string | TargetFunction;
  matrix?: MatrixValues;
  line?: number;
}

interface Where {
  suiteTarget?: number | undefined;
  matrix?: number | undefined;
  case: number | null;
}

/**
 * The targets a case runs against, most specific first: the command line (`--target`, `--matrix`),
 * then the case's own `target`, then the suite's `matrix`, then the suite's `target`.
 */
export function targetChoices(
  suite: { target?: string | TargetFunction | undefined; matrix?: { target: string[] } | undefined },
  c: { target?: string | undefined },
  where: Where,
  override: TargetOverride | undefined,
): TargetChoice[] {
  const at = (line: number | null | undefined) => (line ? { line } : {});
  if (override?.target !== undefined) return [{ target: override.target }];
  if (override?.matrix) return override.matrix.target.map((target) => ({ target, matrix: { target } }));
  if (c.target !== undefined) return [{ target: c.target, ...at(where.case) }];
  if (suite.matrix) return suite.matrix.target.map((target) => ({ target, matrix: { target }, ...at(where.matrix) }));
  return [{ target: suite.target!, ...at(where.suiteTarget) }];
}
