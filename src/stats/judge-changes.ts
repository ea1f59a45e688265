import type { CaseJudgeFingerprint, JudgeFingerprint } from '../core/results-schema.js';

type Criterion = JudgeFingerprint['criterion'];

/** Criterion texts kept as digests: an edit is named, never shown. */
const TEXTS: Array<[keyof Criterion, string]> = [
  ['criteria', 'criteria edited'],
  ['reference', 'reference edited'],
  ['question', 'question edited'],
  ['source', 'source edited'],
  ['comparedTo', 'compared-to answer edited'],
];
/** Criterion values shown as they were and are. */
const VALUES: Array<keyof Criterion> = ['type', 'scale', 'threshold', 'prefer', 'positionSwap', 'trace', 'targetInstructions'];

/**
 * What changed about a case's judging between two runs, in words: `judge openai:gpt-4.1-mini →
 * openai:gpt-4.1-nano`, `criteria edited`, `persona changed`, `judge prompt version changed`,
 * `scale 1 → 10`. A change every judged assertion of the case shares is said once; one that only
 * some have names the assertion. Pure.
 */
export function judgeChanges(base: CaseJudgeFingerprint, head: CaseJudgeFingerprint): string[] {
  const before = new Map(base.assertions.map((a) => [a.key, a]));
  const after = new Map(head.assertions.map((a) => [a.key, a]));
  const perAssertion: Array<{ name: string; changes: string[] }> = [];
  for (const [key, a] of after) {
    const b = before.get(key);
    if (!b) perAssertion.push({ name: a.name, changes: ['judged assertion added'] });
    else if (b.judge.hash !== a.judge.hash) perAssertion.push({ name: a.name, changes: fingerprintChanges(b.judge, a.judge) });
  }
  for (const [key, b] of before) if (!after.has(key)) perAssertion.push({ name: b.name, changes: ['judged assertion removed'] });
  if (perAssertion.length === 0) return ['judge differed between trials'];
  // Shared: every judged assertion of the case (on either side) has it.
  const all = new Set([...before.keys(), ...after.keys()]).size;
  const shared = perAssertion.length === all ? perAssertion[0]!.changes.filter((c) => perAssertion.every((p) => p.changes.includes(c))) : [];
  const own = perAssertion.flatMap((p) => p.changes.filter((c) => !shared.includes(c)).map((c) => `${p.name}: ${c}`));
  return [...shared, ...own];
}

/** The differences between two fingerprints of one judged assertion. */
function fingerprintChanges(b: JudgeFingerprint, h: JudgeFingerprint): string[] {
  const out: string[] = [];
  const judgeOf = (f: JudgeFingerprint) => `${f.provider}:${f.model}`;
  if (judgeOf(b) !== judgeOf(h)) out.push(`judge ${judgeOf(b)} → ${judgeOf(h)}`);
  else {
    // Another model brings its own settings; the same model's settings changing is news.
    const keys = new Set([...Object.keys(b.calledWith ?? {}), ...Object.keys(h.calledWith ?? {})]);
    for (const k of [...keys].sort()) {
      const [x, y] = [b.calledWith?.[k] ?? null, h.calledWith?.[k] ?? null];
      if (x !== y) out.push(`judge ${k} ${String(x)} → ${String(y)}`);
    }
  }
  if (b.persona !== h.persona) out.push(b.persona === undefined ? 'persona set' : h.persona === undefined ? 'persona removed (built-in persona)' : 'persona changed');
  for (const [k, words] of TEXTS) if (b.criterion[k] !== h.criterion[k]) out.push(words);
  for (const k of VALUES) if (b.criterion[k] !== h.criterion[k]) out.push(`${k} ${String(b.criterion[k] ?? '-')} → ${String(h.criterion[k] ?? '-')}`);
  if (JSON.stringify(sorted(b.criterion.choices)) !== JSON.stringify(sorted(h.criterion.choices))) out.push('choices changed');
  if (JSON.stringify(sorted(b.criterion.dimensions)) !== JSON.stringify(sorted(h.criterion.dimensions))) out.push('dimensions changed');
  if (b.prompt !== h.prompt) out.push('judge prompt version changed');
  const tools = (f: JudgeFingerprint) => (f.tools ?? []).join(', ') || 'none';
  if (tools(b) !== tools(h)) out.push(`judge tools ${tools(b)} → ${tools(h)}`);
  // A difference the fields above do not name (a later field): still a change, said plainly.
  return out.length ? out : ['judge changed'];
}

function sorted(record: Record<string, number> | undefined): Array<[string, number]> | null {
  return record ? Object.entries(record).sort(([a], [b]) => a.localeCompare(b)) : null;
}
