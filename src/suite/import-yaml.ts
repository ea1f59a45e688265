import type { ImportedCase } from './import-cases.js';
import { writtenEvalText } from './written-eval-yaml.js';

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
  return writtenEvalText({
    suite: file.suite,
    target: file.target,
    cases,
    header: [
      `Imported by \`agent-evals import\` from ${file.source} (${file.kind}): one case per recorded agent run.`,
      'Ready to edit: each `reference` is the reply as it was recorded, not a checked answer, and each',
      'case `assert`s a skeleton of what the agent did (the tools it called, in order; the tools it had',
      'and did not use). Correct the reference, keep the assertions that matter, and add your own',
      '(e.g. `- { type: factuality }` to judge a reply against the reference). Ids are a hash of input',
      'and reply: importing the same file again gives the same ids.',
    ],
    targetComment: 'a target named in evals.config (`import --target` sets it)',
    eachCase: (doc, i) => {
      const assert = doc.getIn(['cases', i, 'assert'], true) as { commentBefore?: string | null } | undefined;
      if (assert) assert.commentBefore = ' what the recorded run did: edit to what it should do';
    },
  });
}
