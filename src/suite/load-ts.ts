import { readFile } from 'node:fs/promises';
import { UserError, UserErrors } from '../core/errors.js';
import { importUserModule } from './import-module.js';
import { TsEvalFileSchema } from './schema.js';
import type { EvalDefinition } from './define-eval.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue, formatPath } from './zod-issues.js';

export interface LoadedTs {
  file: string;
  data: EvalDefinition;
  caseLines: Array<number | null>;
}

/** Imports and validates a `*.eval.ts` file (its default export, from `defineEval`). */
export async function loadTsEvalFile(file: string, displayPath = file, loadTimeoutMs?: number): Promise<LoadedTs> {
  const mod = await importUserModule(file, displayPath, loadTimeoutMs);
  const parsed = TsEvalFileSchema.safeParse(mod);
  if (!parsed.success) {
    const text = await readFile(file, 'utf8');
    throw new UserErrors(
      parsed.error.issues.slice(0, 10).map((issue) => {
        const { path, message } = describeIssue(issue, mod, allAssertionTypes);
        return new UserError(message, { file: displayPath, line: guessLine(text, mod, path), field: formatPath(path) || undefined });
      }),
    );
  }
  const data = parsed.data as unknown as EvalDefinition;
  const text = await readFile(file, 'utf8');
  return { file: displayPath, data, caseLines: data.cases.map((c) => lineOfId(text, c.id)) };
}

/** A case's line in its source: where its id literal stands (TS modules carry no positions). */
function lineOfId(text: string, id: string): number | null {
  const m = new RegExp(`id\\s*:\\s*(['"\`])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`).exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}

function guessLine(text: string, mod: unknown, path: PropertyKey[]): number | undefined {
  if (path[0] !== 'cases' || typeof path[1] !== 'number') return undefined;
  const c = (mod as { cases?: Array<{ id?: unknown }> })?.cases?.[path[1]];
  return typeof c?.id === 'string' ? (lineOfId(text, c.id) ?? undefined) : undefined;
}
