/**
 * Self-preference: a judge tends to favour answers of its own model, and of its own model family.
 * Models are compared by name, whatever provider serves them (`azure:gpt-4.1` is `openai:gpt-4.1`).
 */

/** A model's name without provider, path or snapshot: `openai:gpt-5.4-mini-2026-03-01` → `gpt-5.4-mini`. */
function modelName(ref: string): string {
  const name = ref
    .slice(ref.indexOf(':') + 1)
    .split('/')
    .pop()!
    .toLowerCase();
  // Dated snapshots (-2026-03-01, -20250929, @20240620, Mistral's -2411) and moving aliases are the same model.
  return name.replace(/([-@](\d{4}-\d{2}-\d{2}|\d{8}|\d{4})|-latest|:latest)$/, '');
}

/**
 * A model's family line: its leading name and major version (`gpt-5.4-mini` and `gpt-5.5` are
 * `gpt-5`; `claude-sonnet-4-5` and `claude-haiku-4-5` are `claude-4`); a name without a
 * version is its family by the leading name alone (`mistral-large` → `mistral`).
 */
export function modelFamily(ref: string): string {
  const name = modelName(ref);
  const lead = /^[a-z]+/.exec(name)?.[0];
  const major = /\d+/.exec(name)?.[0];
  if (!lead) return name;
  return major ? `${lead}-${major}` : lead;
}

/** How close a judge is to a target's model: the same model, one family, or unrelated (undefined). */
export function kinship(judge: string, target: string): { kind: 'model' } | { kind: 'family'; family: string } | undefined {
  if (modelName(judge) === modelName(target)) return { kind: 'model' };
  const family = modelFamily(judge);
  return family === modelFamily(target) ? { kind: 'family', family } : undefined;
}

const SILENCE = 'selfJudgingWarning: false in the config silences this';

/** The warning for a judge that grades its own model's, or its own family's, answers; undefined when unrelated. */
export function selfJudgingWarning(judge: string, target: string): string | undefined {
  const kin = kinship(judge, target);
  if (!kin) return undefined;
  return kin.kind === 'model'
    ? `the judge ${judge} is also the target's model (${target}): a model grading its own output tends to favour it (${SILENCE})`
    : `the judge ${judge} and the target's model ${target} are of one family (${kin.family}): a model tends to favour answers of its own family; judge with another family for a fair grade (${SILENCE})`;
}

/**
 * Judges stay the same across a matrix; one whose model is also a matrix target's model (or of its
 * family) tends to favour that target's answers (self-preference), so the comparison leans its way.
 * One warning per such pair, before the run.
 */
export function selfPreferenceWarnings(matrixTargets: ReadonlyArray<{ name: string; model?: string | undefined }>, judgeModels: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of matrixTargets) {
    if (t.model === undefined) continue;
    for (const judge of judgeModels) {
      const kin = kinship(judge, t.model);
      if (!kin) continue;
      const how =
        kin.kind === 'model'
          ? `is also the model of matrix target "${t.name}" (${t.model}): a judge tends to prefer its own model's answers`
          : `is of one family (${kin.family}) with matrix target "${t.name}" (${t.model}): a judge tends to prefer its own family's answers`;
      out.push(`judge ${judge} ${how}, so the comparison may lean towards "${t.name}"; judge with another model for a fair comparison (${SILENCE})`);
    }
  }
  return out;
}
