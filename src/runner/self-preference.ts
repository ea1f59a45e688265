/** The model name of a `provider:model` reference (`openai:gpt-4.1` → `gpt-4.1`). */
const modelOf = (ref: string) => ref.slice(ref.indexOf(':') + 1);

/**
 * Judges stay the same across a matrix; one whose model is also a matrix target's model tends to
 * favour that target's answers (self-preference), so the comparison leans its way. One warning per
 * such pair, before the run.
 */
export function selfPreferenceWarnings(matrixTargets: ReadonlyArray<{ name: string; model?: string | undefined }>, judgeModels: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of matrixTargets) {
    if (t.model === undefined) continue;
    for (const judge of judgeModels) {
      if (judge === t.model || modelOf(judge) === modelOf(t.model)) {
        out.push(
          `judge ${judge} is also the model of matrix target "${t.name}" (${t.model}): a judge tends to prefer its own model's answers, so the comparison may lean towards "${t.name}"; judge with another model for a fair comparison`,
        );
      }
    }
  }
  return out;
}
