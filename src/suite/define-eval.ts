import type { z } from 'zod';
import type { TsEvalFileSchema, TsCaseSchema } from './schema.js';
import type { CheckApi } from './check-api.js';
import type { TargetFunction } from '../targets/function-target.js';

type TsCaseFields = Omit<z.input<typeof TsCaseSchema>, 'check'>;

export interface EvalCase extends TsCaseFields {
  /** Records this trial's assertions on `t`; runs after the target, once per trial. */
  check?: (t: CheckApi) => void | Promise<void>;
}

export interface EvalDefinition extends Omit<z.input<typeof TsEvalFileSchema>, 'cases' | 'target' | 'check'> {
  /** A target named in evals.config.ts, or a function target given inline (optional with `matrix`). */
  target?: string | TargetFunction;
  cases?: EvalCase[];
  /** With a `dataset`: records assertions on every row's trials (`t.input`, `t.reference` are the row's). */
  check?: (t: CheckApi) => void | Promise<void>;
}

/**
 * Typed identity for `*.eval.ts` files; the loader validates with the same zod schemas as YAML. A
 * file may export one definition or an array of them.
 */
export function defineEval(definition: EvalDefinition): EvalDefinition {
  return definition;
}
