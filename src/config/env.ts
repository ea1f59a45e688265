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
