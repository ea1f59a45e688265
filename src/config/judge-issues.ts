import type { z } from 'zod';
import { formatPath, valueAt } from '../suite/zod-issues.js';
import { closestName } from '../core/closest-name.js';
import { kindOfValue } from './target-issues.js';

type Issue = z.core.$ZodIssue;

/** The forms one config judge takes (config/schema.ts), for an error about a value that is none of them. */
const JUDGE_FORMS = '"provider:model", "fake", { provider, model, ... }, or a judge object (agentJudge(...), promptJudge(...))';
/** `judge` may also be a panel of them (`judges.<name>` and a panel's members may not). */
const OR_PANEL = ', or a panel { panel: [two or more judges], aggregate? }';

/**
 * One message for a config judge (`judge`, `judges.<name>`) that matched no form of its union: zod
 * says only "Invalid input". A value with `panel` is a panel, and its own problems are named (a member
 * that is no judge, too few members); any other value is told the forms a judge takes.
 */
export function describeJudgeIssue(issue: Issue, config: unknown): { path: PropertyKey[]; message: string } | undefined {
  const depth = issue.path[0] === 'judge' ? 1 : issue.path[0] === 'judges' ? 2 : 0;
  if (depth === 0 || issue.path.length !== depth || issue.code !== 'invalid_union') return undefined;
  const value = valueAt(config, issue.path);
  const mayBePanel = depth === 1;
  if (!mayBePanel || typeof value !== 'object' || value === null || !('panel' in value)) return { path: issue.path, message: notAJudge(value, mayBePanel) };
  // The panel form is the union's last branch.
  const problems = (issue.errors.at(-1) ?? []).map((i) => {
    const where = formatPath(i.path);
    const message = i.code === 'invalid_union' ? notAJudge(valueAt(value, i.path), false) : i.message.replace(/^Invalid input: /, '');
    return where ? `${where}: ${message}` : message;
  });
  return { path: issue.path, message: problems.join('; ') };
}

function notAJudge(value: unknown, mayBePanel: boolean): string {
  const forms = mayBePanel ? JUDGE_FORMS.replace(', or a judge', ', a judge') + OR_PANEL : JUDGE_FORMS;
  return `expected a judge: ${forms}; got ${kindOfValue(value)}${specKeysProblem(value)}`;
}

/**
 * `: it has no "model" (is "modle" meant?)` for an object meant as a `{ provider, model, ... }` spec
 * whose model is misspelt; else ''. Its other keys are the provider's to check, so none is called unknown.
 */
function specKeysProblem(value: unknown): string {
  if (typeof value !== 'object' || value === null || !('provider' in value) || 'model' in value) return '';
  const near = Object.keys(value).find((k) => closestName(k, ['model']));
  return near ? `: it has no "model" (is ${JSON.stringify(near)} meant?)` : '';
}
