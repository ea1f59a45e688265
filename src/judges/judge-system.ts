/**
 * A judge written as a model spec object may carry `system`, its persona (replacing the built-in first
 * line of the judge's system prompt). It is no provider setting, so it is taken off before the spec
 * reaches the provider; `problem` says what is wrong with it.
 */
export function splitJudgeSystem(ref: unknown): { model: unknown; system?: string; problem?: string } {
  if (typeof ref !== 'object' || ref === null || !('system' in ref)) return { model: ref };
  const { system, ...model } = ref;
  if (typeof system !== 'string' || system.trim() === '') return { model, problem: 'system: expected a non-empty string (the judge persona)' };
  return { model, system };
}
