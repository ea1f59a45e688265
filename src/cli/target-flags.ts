import { UserError } from '../core/errors.js';
import { MATRIX_DIMENSIONS, type MatrixDimension } from '../core/matrix.js';
import type { MatrixAxes, TargetOverride } from '../suite/matrix-expand.js';
import { pushAll } from '../core/push-all.js';
import { configuredTargets } from '../suite/configured-targets.js';

/**
 * `--target name` / `--matrix target=a,b` (and `model=`, `effort=`, `instructions=`, which `--target`
 * may take too) as one override of every suite's targets, checked against the configured targets
 * before any file loads (exit 2 on a bad one).
 */
export function targetOverride(flags: { target?: string; matrix?: string[] }, configured: readonly string[], configFile?: string | null): TargetOverride | undefined {
  const known = configuredTargets(configured, configFile);
  const check = (flag: string, name: string) => {
    if (!configured.includes(name)) throw new UserError(`${flag}: unknown target "${name}" (configured: ${known})`);
  };
  if (flags.target !== undefined) check('--target', flags.target);
  if (!flags.matrix?.length) return flags.target !== undefined ? { target: flags.target } : undefined;
  const axes: MatrixAxes = {};
  for (const spec of flags.matrix) {
    const eq = spec.indexOf('=');
    const dimension = eq === -1 ? spec : spec.slice(0, eq).trim();
    if (!(MATRIX_DIMENSIONS as readonly string[]).includes(dimension)) {
      throw new UserError(`--matrix ${spec}: unknown matrix dimension "${dimension}" (the dimensions are ${MATRIX_DIMENSIONS.join(', ')}; write e.g. --matrix target=a,b)`);
    }
    const names = spec
      .slice(eq + 1)
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (eq === -1 || names.length === 0) throw new UserError(`--matrix ${spec}: give the values, e.g. --matrix ${dimension}=a,b`);
    if (dimension === 'target') for (const name of names) check('--matrix', name);
    // A dimension given twice adds its values (each once, in the order given).
    const values = (axes[dimension as MatrixDimension] ??= []);
    pushAll(
      values,
      names.filter((n, i) => !values.includes(n) && names.indexOf(n) === i),
    );
  }
  // --target with settings dimensions varies that one target; with `target=` it would pick two ways.
  if (flags.target !== undefined && axes.target)
    throw new UserError('--target and --matrix target=… cannot be combined: --target runs every case against one target, --matrix target=… against several');
  return { ...(flags.target !== undefined ? { target: flags.target } : {}), matrix: axes };
}
