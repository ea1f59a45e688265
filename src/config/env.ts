/**
 * The judge named by the environment, lowest in the resolution order
 * (assertion > case > suite > config > env): EVALS_JUDGE_PROVIDER + EVALS_JUDGE_MODEL,
 * or EVALS_JUDGE_MODEL alone as `provider:model`.
 */
export function judgeFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const model = env.EVALS_JUDGE_MODEL?.trim();
  const provider = env.EVALS_JUDGE_PROVIDER?.trim();
  if (!model) return provider === 'fake' ? 'fake' : undefined;
  if (provider) return `${provider}:${model}`;
  return model.includes(':') ? model : undefined;
}

/**
 * A half-set pair, which `judgeFromEnv` reads as no judge at all: every judged assertion would then
 * fail "No judge configured." after the targets ran (and were paid for). Undefined when the pair is
 * whole, empty, or `EVALS_JUDGE_PROVIDER=fake` alone.
 */
export function judgeEnvProblem(env: NodeJS.ProcessEnv): string | undefined {
  const model = env.EVALS_JUDGE_MODEL?.trim();
  const provider = env.EVALS_JUDGE_PROVIDER?.trim();
  if (provider && !model && provider !== 'fake') return `EVALS_JUDGE_PROVIDER is "${provider}" but EVALS_JUDGE_MODEL is not set: set it too (or EVALS_JUDGE_MODEL=${provider}:<model> alone)`;
  if (model && !provider && !model.includes(':')) return `EVALS_JUDGE_MODEL is "${model}" with no provider: set EVALS_JUDGE_PROVIDER too, or write it as provider:model (e.g. openai:${model})`;
  return undefined;
}
