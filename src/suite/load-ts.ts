import { UserError, UserErrors } from '../core/errors.js';
import { PARSE_ONCE } from '../core/parse-once.js';
import { importUserModule } from './import-module.js';
import { defaultExportProblem } from './default-export.js';
import { readEvalFileBytes } from './eval-file-bytes.js';
import { TsEvalFileSchema } from './schema.js';
import type { EvalDefinition } from './define-eval.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue, formatPath } from './zod-issues.js';
import { NO_USER_ASSERTIONS, type UserAssertions } from '../assertions/user-assertion.js';

export interface LoadedTs {
  file: string;
  data: EvalDefinition;
  caseLines: Array<number | null>;
  /** Line of the suite's `target: '<name>'`, where an unknown target is reported. */
  targetLine?: number | undefined;
}

/**
 * Imports and validates a `*.eval.ts` file: its default export, one `defineEval(...)` or an array
 * of them.
 */
export async function loadTsEvalFile(file: string, displayPath = file, loadTimeoutMs?: number, userAssertions: UserAssertions = NO_USER_ASSERTIONS): Promise<LoadedTs[]> {
  // Read first: a file that is not a regular one is refused before the module loader opens it.
  const text = (await readEvalFileBytes(file, displayPath)).toString('utf8');
  const mod = await importUserModule(file, displayPath, loadTimeoutMs);
  const shape = defaultExportProblem(mod, { owner: 'eval file', hint: 'an eval file default-exports `defineEval({ … })` or an array of them', arrays: true });
  if (shape) throw new UserError(shape, { file: displayPath });
  const many = Array.isArray(mod);
  const defs: unknown[] = many ? mod : [mod];
  if (defs.length === 0) throw new UserError('the default export is an empty array: export defineEval(...) or an array of them', { file: displayPath });
  return validateTsDefinitions(defs, { display: displayPath, text, many, userAssertions });
}

/**
 * Eval definitions checked against the TS eval-file schema, every bad field an error naming
 * `display` (the file, or what stands for it) and, from the source `text` when there is one, the line.
 */
export function validateTsDefinitions(
  defs: unknown[],
  { display: displayPath, text, many, userAssertions = NO_USER_ASSERTIONS }: { display: string; text: string; many: boolean; userAssertions?: UserAssertions },
): LoadedTs[] {
  const errors: UserError[] = [];
  const loaded: LoadedTs[] = [];
  defs.forEach((def, k) => {
    const parsed = TsEvalFileSchema.safeParse(def, PARSE_ONCE);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 10)) {
        const { path, message: described } = describeIssue(issue, def, allAssertionTypes, TsEvalFileSchema);
        const message = userAssertionHint(valueAt(def, path), userAssertions) ?? described;
        const field = formatPath(many ? [k, ...path] : path);
        errors.push(new UserError(message, { file: displayPath, line: guessLine(text, def, path), field: field || undefined }));
      }
      return;
    }
    const data = parsed.data as unknown as EvalDefinition;
    const targetLine = typeof data.target === 'string' ? (lineOfKey(text, 'target', data.target) ?? undefined) : undefined;
    loaded.push({ file: displayPath, data, caseLines: (data.cases ?? []).map((c) => lineOfId(text, c.id)), ...(targetLine !== undefined ? { targetLine } : {}) });
  });
  if (errors.length > 0) throw new UserErrors(errors);
  return loaded;
}

/**
 * A user assertion's name as an entry's `type`: a YAML file's way, which a TS file's typed `assert`
 * does not take. Said so, rather than "unknown assertion type" with a list that lacks the config's own.
 */
function userAssertionHint(type: unknown, userAssertions: UserAssertions): string | undefined {
  if (typeof type !== 'string' || !userAssertions.has(type)) return undefined;
  const name = JSON.stringify(type).replace(/^"|"$/g, "'");
  return `${JSON.stringify(type)} is a user assertion of the config: in a TypeScript eval file, call it in check(t) as t.assertion(${name}, { … }), or write { type: 'userAssertion', name: ${name}, options: { … } } in assert`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** A case's line in its source: where its id literal stands (TS modules carry no positions). */
function lineOfId(text: string, id: string): number | null {
  return lineOfKey(text, 'id', id);
}

/** The line of the first `key: '<value>'` in the source (a string literal, any quote), if there is one. */
function lineOfKey(text: string, key: string, value: string): number | null {
  const m = new RegExp(`\\b${key}\\s*:\\s*(['"\`])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`).exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}

function guessLine(text: string, mod: unknown, path: PropertyKey[]): number | undefined {
  if (path[0] !== 'cases' || typeof path[1] !== 'number') return undefined;
  const c = (mod as { cases?: Array<{ id?: unknown }> })?.cases?.[path[1]];
  return typeof c?.id === 'string' ? (lineOfId(text, c.id) ?? undefined) : undefined;
}
