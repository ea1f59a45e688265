import { CORE_SCHEMA, load, type LoadOptions } from 'js-yaml';
import type { Document, LineCounter } from 'yaml';
import { UserError, UserErrors } from '../core/errors.js';

/**
 * The one set of rules every YAML file the runner reads is parsed by (eval files and YAML datasets):
 * YAML 1.2 core schema (dates and yes/no stay strings), no duplicate keys, and aliases expanded
 * only under MAX_ALIAS_COUNT. Values come from js-yaml (about 5× faster than `yaml` on large files);
 * `yaml`'s document model, loaded only when needed (it adds ~50 ms to every start-up), bounds the
 * aliases and locates errors.
 */
export async function parseYamlText(text: string, file: string, listener?: LoadOptions['listener']): Promise<unknown> {
  // js-yaml shares aliased nodes, so a billion-laughs file loads small and explodes later, when
  // the values are copied or written; a file with aliases is first expanded under a bound.
  if (ALIAS.test(text)) await checkAliasExpansion(text, file);
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA, filename: file, ...(listener ? { listener } : {}) });
  } catch (err) {
    const { doc, lines } = await yamlDocument(text);
    throw syntaxErrors(doc, lines, file) ?? syntaxError(file, err as JsYamlError);
  }
  // Only a file that spells it pays for the walk.
  if (text.includes('__proto__')) refuseProtoKeys(value, text, file);
  return value;
}

/**
 * A `__proto__` key cannot be kept: the schemas rebuild mappings and drop it, so `calledTool` with
 * `args: { __proto__: … }` would match any call. Refused at its line instead.
 */
function refuseProtoKeys(value: unknown, text: string, file: string): void {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) {
      const at = text.split('\n').findIndex((l) => /^[\s-]*["']?__proto__["']?\s*:/.test(l) || /[{,]\s*["']?__proto__["']?\s*:/.test(l));
      throw new UserErrors([new UserError('"__proto__" cannot be a key: it would be dropped (an args filter with it would match any call)', { file, ...(at >= 0 ? { line: at + 1 } : {}) })]);
    }
    for (const child of Object.values(v)) visit(child);
  };
  visit(value);
}

interface JsYamlError {
  reason?: string;
  mark?: { line: number };
}

/** js-yaml's own words and line, when `yaml` finds nothing wrong with the text. */
function syntaxError(file: string, err: JsYamlError | undefined): UserErrors {
  return new UserErrors([new UserError(`YAML syntax error: ${err?.reason ?? 'unreadable YAML'}`, { file, ...(err?.mark ? { line: err.mark.line + 1 } : {}) })]);
}

/** The text as `yaml`'s document model, with the lines of its nodes. */
async function yamlDocument(text: string): Promise<{ doc: Document; lines: LineCounter }> {
  const { LineCounter, parseDocument } = await import('yaml');
  const lines = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }), lines };
}

/** Every syntax error of the document at its line, or undefined when `yaml` reads it cleanly. */
function syntaxErrors(doc: Document, lines: LineCounter, file: string): UserErrors | undefined {
  if (doc.errors.length === 0) return undefined;
  return new UserErrors(doc.errors.map((e) => new UserError(`YAML syntax error: ${e.message.split('\n')[0]}`, { file, line: lines.linePos(e.pos[0]).line })));
}

/** An alias token (`*name`); a false match only costs the bounded expansion check. */
const ALIAS = /(?:^|[\s[{,])\*[^\s[\]{},]/m;

/**
 * How far aliases may multiply the document: `yaml`'s count of an anchor's uses times the aliases
 * nested in it. Room for an anchor reused by thousands of cases; a seven-level alias bomb hits it
 * at its fifth level.
 */
const MAX_ALIAS_COUNT = 10_000;

/** Throws a located UserError when the file's aliases would expand past MAX_ALIAS_COUNT. */
async function checkAliasExpansion(text: string, file: string): Promise<void> {
  const { visit, isAlias, isCollection, isPair, isScalar } = await import('yaml');
  const { doc, lines } = await yamlDocument(text);
  // Syntax errors (unknown aliases included) are reported by the usual path.
  if (doc.errors.length > 0) return;
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return;
  } catch (err) {
    if (!/excessive alias count/i.test((err as Error).message)) return;
  }
  // The line given is the alias that expands to the most nodes: the top of the bomb.
  const anchored = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (sizes.has(node)) return sizes.get(node)!;
    sizes.set(node, 0); // an alias inside its own anchor adds nothing more
    let n = 1;
    if (isAlias(node)) n = sizeOf(anchored.get(node.source));
    else if (isPair(node)) n = sizeOf(node.key) + sizeOf(node.value);
    else if (isCollection(node)) n = node.items.reduce<number>((sum, item) => sum + sizeOf(item), 1);
    else if (!isScalar(node)) n = 0;
    sizes.set(node, n);
    return n;
  };
  let worst: { line: number; size: number; name: string } | undefined;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        const size = sizeOf(node);
        if (!worst || size > worst.size) worst = { line: node.range ? lines.linePos(node.range[0]).line : 1, size, name: node.source };
      } else if (node.anchor) anchored.set(node.anchor, node);
    },
  });
  throw new UserError(
    `YAML aliases expand too far${worst ? ` (*${worst.name} alone stands for ${worst.size} nodes)` : ''}: at most ${MAX_ALIAS_COUNT} alias expansions are allowed; write the data out instead`,
    { file, ...(worst ? { line: worst.line } : {}) },
  );
}
