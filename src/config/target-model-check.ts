import { UserError, UserErrors, errorMessage } from '../core/errors.js';
import { parseModelSpec } from '../providers/model-spec.js';
import { targetKindOf } from '../targets/config-schema.js';

/**
 * A model-agent target's `model` must parse now, so the error names the config file and the field
 * (`targets.<name>.model`), not only the target when the run builds it.
 */
export function checkTargetModels(targets: Readonly<Record<string, unknown>>, file: string | undefined): void {
  const errors: UserError[] = [];
  for (const [name, spec] of Object.entries(targets)) {
    if (targetKindOf(spec) !== 'model') continue;
    try {
      parseModelSpec((spec as { model: unknown }).model);
    } catch (err) {
      errors.push(new UserError(errorMessage(err), { file, field: `targets.${name}.model` }));
    }
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}
