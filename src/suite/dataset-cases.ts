import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { lazySchema } from '../core/lazy-schema.js';
import { caseMessageSchema, type CaseMessage } from './message-schema.js';
import { InputPartSchema, type InputPartSpec } from '../core/content-parts.js';
import { lacksReference, missingReferenceMessage } from '../judges/spec.js';
import { TurnSchema, type TsAssertionSpec } from './schema.js';
import type { DatasetRow } from './dataset-read.js';
import { RowPicker, type DatasetPick } from './dataset-pick.js';

export interface DatasetColumns {
  /** The field holding each row's input (default `input`). */
  inputColumn?: string;
  /** The field holding each row's id (default `id`). */
  idColumn?: string;
}

/** A dataset row as a case: what plan.ts folds the suite's settings into. */
export interface RowCase {
  id: string;
  /** 1-based row number in the dataset. */
  row: number;
  /** A string, or content parts (a JSONL row's array: text, images, files relative to the dataset file). */
  input?: string | InputPartSpec[];
  messages?: CaseMessage[];
  turns?: Array<z.infer<typeof TurnSchema>>;
  reference?: string;
  tags?: string[];
  line: number | null;
  /** The suite's list itself when it uses no `{{variable}}`, so rows share one array. */
  assertions: TsAssertionSpec[];
}

const CASE_ID = /^[^\s*?]+$/;
const VARIABLE = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/**
 * Turns dataset rows into cases, checking every row (ids, fields, variables) while holding only
 * the rows the pick keeps. Errors name the file, the row (and line) and the field.
 */
export async function datasetCases(rows: AsyncIterable<DatasetRow>, ctx: { file: string; columns: DatasetColumns; assertions: TsAssertionSpec[]; pick: DatasetPick }): Promise<RowCase[]> {
  const used = variablesUsed(ctx.assertions);
  const firstRow = new Map<string, number>();
  const picker = new RowPicker<RowCase>(ctx.pick);
  const idColumn = idColumnCheck(ctx.columns.idColumn);
  for await (const r of rows) {
    const where = { file: ctx.file, ...(r.line ? { line: r.line } : {}) };
    idColumn.see(r, where);
    const n = normalise(r, ctx.columns, where, used.length > 0);
    const first = firstRow.get(n.id);
    if (first !== undefined) {
      const why = n.hashed ? 'the same input and reference (give them an `id`)' : `the same id "${n.id}"`;
      throw new UserError(`rows ${first} and ${r.row} have ${why}`, { ...where, field: n.hashed ? 'input' : (ctx.columns.idColumn ?? 'id') });
    }
    firstRow.set(n.id, r.row);
    for (const { name, path } of used) {
      if (!n.vars.has(name)) throw new UserError(`row ${r.row}: {{${name}}} in ${path} is not a field of this row`, { ...where, field: name });
    }
    ctx.assertions.forEach((spec, i) => {
      if (lacksReference(spec, n.reference)) throw new UserError(`row ${r.row}: ${missingReferenceMessage(spec.type)}`, { ...where, field: `assert[${i}]` });
    });
    // Only what the case needs is kept: the row's other fields are dropped once substituted.
    picker.offer({
      id: n.id,
      row: n.row,
      ...(n.input !== undefined ? { input: n.input } : {}),
      ...(n.messages ? { messages: n.messages } : {}),
      ...(n.turns ? { turns: n.turns } : {}),
      ...(n.reference !== undefined ? { reference: n.reference } : {}),
      ...(n.tags ? { tags: n.tags } : {}),
      line: n.line ?? null,
      assertions: used.length === 0 ? ctx.assertions : substitute(ctx.assertions, n.vars),
    });
  }
  if (firstRow.size === 0) throw new UserError('the dataset has no rows', { file: ctx.file });
  idColumn.done();
  return picker.done();
}

/**
 * A named `idColumn` that no row holds is a misspelt column: without the check every id would
 * silently become a hash of its row, and baselines would match nothing by the ids the author chose.
 * A row without it is still allowed (its id is hashed), as rows without `id` are.
 */
function idColumnCheck(idColumn: string | undefined): { see(r: DatasetRow, where: { file: string; line?: number }): void; done(): void } {
  let found = idColumn === undefined;
  let first: { fields: string[]; where: { file: string; line?: number } } | undefined;
  return {
    see(r, where) {
      if (found) return;
      if (Object.hasOwn(r.value, idColumn!)) found = true;
      else first ??= { fields: Object.keys(r.value), where };
    },
    done() {
      if (found || !first) return;
      const fields = first.fields.length > 0 ? `; the first row's fields are ${first.fields.map((f) => JSON.stringify(f)).join(', ')}` : '';
      throw new UserError(`no row has a "${idColumn}" field (the idColumn)${fields}`, { ...first.where, field: idColumn });
    },
  };
}

interface Normalised {
  row: number;
  line: number | undefined;
  id: string;
  hashed: boolean;
  input?: string | InputPartSpec[];
  messages?: CaseMessage[];
  turns?: Array<z.infer<typeof TurnSchema>>;
  reference?: string;
  tags?: string[];
  /** The row's own fields as text: a Map, so `{{constructor}}` or `{{__proto__}}` finds no built-in (empty when no assertion uses a variable). */
  vars: Map<string, string>;
}

/** A user message's content may be parts, as in an eval file (built on first use). */
const MessagesSchema = lazySchema(() => z.array(caseMessageSchema()).min(1));
const TurnsSchema = z.array(TurnSchema).min(1);
const InputPartsSchema = z.array(InputPartSchema).min(1);

function normalise(r: DatasetRow, columns: DatasetColumns, where: { file: string; line?: number }, withVars: boolean): Normalised {
  // Only the row's own fields count: a column named `toString` is not the built-in.
  const v = (key: string): unknown => (Object.hasOwn(r.value, key) ? r.value[key] : undefined);
  const fail = (field: string, message: string): never => {
    throw new UserError(`row ${r.row}: ${message}`, { ...where, field });
  };
  const inputKey = columns.inputColumn ?? 'input';
  const idKey = columns.idColumn ?? 'id';
  if (columns.inputColumn && [inputKey, 'messages', 'turns'].every((k) => !Object.hasOwn(r.value, k))) fail(inputKey, `no "${inputKey}" field (the inputColumn)`);
  const input = v(inputKey);
  const given = [input !== undefined, v('messages') !== undefined, v('turns') !== undefined].filter(Boolean).length;
  if (given !== 1) fail(inputKey, `a row needs exactly one of "${inputKey}", "messages" or "turns"`);
  if (input !== undefined && typeof input !== 'string' && !Array.isArray(input)) fail(inputKey, 'the input is a string or a list of content parts');
  const parts = Array.isArray(input) ? structured(input, InputPartsSchema, inputKey, fail) : undefined;
  const messages = v('messages') === undefined ? undefined : structured(v('messages'), MessagesSchema, 'messages', fail);
  const turns = v('turns') === undefined ? undefined : structured(v('turns'), TurnsSchema, 'turns', fail);
  if (v('reference') !== undefined && v('expected') !== undefined) fail('expected', '"expected" is another name for "reference": give one');
  const refKey = v('reference') !== undefined ? 'reference' : 'expected';
  const reference = v(refKey);
  if (reference !== undefined && typeof reference !== 'string') fail(refKey, 'the reference is a string');
  const tags = v('tags') === undefined ? undefined : tagList(v('tags'), fail);
  const rawId = v(idKey);
  let id: string;
  const hashed = rawId === undefined;
  if (hashed) id = rowHash(input ?? messages ?? turns, reference);
  else if (typeof rawId === 'number' || (typeof rawId === 'string' && CASE_ID.test(rawId))) id = String(rawId);
  else id = fail(idKey, 'an id is a number or a string with no spaces, "*" or "?"');
  const vars = new Map<string, string>();
  if (withVars) for (const [key, value] of Object.entries(r.value)) if (value !== undefined && value !== null) vars.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return {
    row: r.row,
    line: r.line,
    id,
    hashed,
    ...(typeof input === 'string' ? { input } : parts ? { input: parts } : {}),
    ...(messages ? { messages } : {}),
    ...(turns ? { turns } : {}),
    ...(typeof reference === 'string' ? { reference } : {}),
    ...(tags ? { tags } : {}),
    vars,
  };
}

/** A short, stable id from what a row asks and expects: reordering rows keeps every id. */
export function rowHash(input: unknown, reference: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([input ?? null, reference ?? null]))
    .digest('hex')
    .slice(0, 12);
}

/** An array field; in CSV it is a JSON cell. */
function structured<T>(value: unknown, schema: z.ZodType<T>, field: string, fail: (field: string, message: string) => never): T {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      fail(field, `"${field}" is a JSON array`);
    }
  }
  const parsed = schema.safeParse(v);
  if (!parsed.success) fail(field, `"${field}" is not valid: ${parsed.error.issues[0]?.message ?? 'bad value'}`);
  return parsed.data;
}

/** A list of strings, or one string of comma-separated tags (a CSV cell). */
function tagList(value: unknown, fail: (field: string, message: string) => never): string[] {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((t) => typeof t === 'string' && t.length > 0)) return value as string[];
  return fail('tags', 'tags are a list of strings or a comma-separated string');
}

/** Every `{{name}}` in the assertions' strings, with where it stands. */
function variablesUsed(assertions: TsAssertionSpec[]): Array<{ name: string; path: string }> {
  const out: Array<{ name: string; path: string }> = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') for (const m of value.matchAll(VARIABLE)) out.push({ name: m[1]!, path });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
  };
  assertions.forEach((a, i) => walk(a, `assert[${i}]`));
  return out;
}

/** A copy of the assertions with each `{{name}}` replaced by the row's value (functions kept as they are). */
function substitute(assertions: TsAssertionSpec[], vars: Map<string, string>): TsAssertionSpec[] {
  const map = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(VARIABLE, (_m, name: string) => vars.get(name)!);
    if (Array.isArray(value)) return value.map(map);
    if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
    }
    return value;
  };
  return assertions.map((a) => map(a) as TsAssertionSpec);
}
