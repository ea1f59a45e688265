import type { ImportedCase } from './import-cases.js';

/** What an imported eval file names beside its cases. */
export interface ImportedFile {
  suite: string;
  target: string;
  /** The file imported, as the user named it. */
  source: string;
  /** `an OTLP trace export` or `an agent-evals results file`. */
  kind: string;
}

/**
 * The YAML eval file of imported cases, with comments saying what was recorded and what to edit:
 * the reference is the reply as recorded (not a known-good answer), the trajectory assertions are
 * a skeleton of what the agent did. Loaded with `yaml` (its document model keeps comments).
 */
export async function importedEvalText(cases: readonly ImportedCase[], file: ImportedFile): Promise<string> {
  const { Document } = await import('yaml');
  const doc = new Document({ suite: file.suite, target: file.target, cases });
  doc.commentBefore = [
    ` Imported by \`agent-evals import\` from ${file.source} (${file.kind}): one case per recorded agent run.`,
    ' Ready to edit: each `reference` is the reply as it was recorded, not a checked answer, and each',
    ' case `assert`s a skeleton of what the agent did (the tools it called, in order; the tools it had',
    ' and did not use). Correct the reference, keep the assertions that matter, and add your own',
    ' (e.g. `- { type: factuality }` to judge a reply against the reference). Ids are a hash of input',
    ' and reply: importing the same file again gives the same ids.',
  ].join('\n');
  const target = doc.get('target', true) as { comment?: string | null } | undefined;
  if (target) target.comment = ' a target named in evals.config (`import --target` sets it)';
  cases.forEach((c, i) => {
    const assert = doc.getIn(['cases', i, 'assert'], true) as { commentBefore?: string | null; items?: Array<{ flow?: boolean }> } | undefined;
    if (!assert) return;
    assert.commentBefore = ' what the recorded run did: edit to what it should do';
    for (const item of assert.items ?? []) item.flow = true;
  });
  return doc.toString({ lineWidth: 0 });
}
