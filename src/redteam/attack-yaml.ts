import { CORE_SCHEMA, dump, load } from 'js-yaml';
import type { AttackCase } from './plugin-types.js';

/** The attack suite's document: one suite, each case naming its own target. */
export interface AttackDocument {
  suite: string;
  description?: string;
  target: string;
  cases: AttackCase[];
}

/** The suite's name: case keys are `redteam/<target>/<plugin>/<attack>`. */
export const ATTACK_SUITE = 'redteam';

/** YAML text under the rules eval files are read by (core schema: strings stay strings), no anchors, lines unwrapped. */
export function attackYamlText(doc: AttackDocument, header: string): string {
  const comment = header
    .split('\n')
    .map((l) => `# ${l}`.trimEnd())
    .join('\n');
  return `${comment}\n${dump(doc, { schema: CORE_SCHEMA, noRefs: true, lineWidth: -1, sortKeys: false })}`;
}

/** The attack suite read back (the CLI wrote it; `findingsSuite` keeps its successful cases as they were). */
export function readAttackYaml(text: string): AttackDocument {
  const doc = load(text, { schema: CORE_SCHEMA }) as Partial<AttackDocument> | null;
  if (!doc || typeof doc.suite !== 'string' || typeof doc.target !== 'string' || !Array.isArray(doc.cases))
    throw new Error('not an attack suite written by attackSuite(): it needs suite, target and cases');
  return doc as AttackDocument;
}
