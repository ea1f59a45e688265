import { writtenEvalText } from '../suite/written-eval-yaml.js';
import type { DraftCase } from './draft-cases.js';

/** What a drafted eval file names beside its cases. */
export interface DraftFile {
  suite: string;
  target: string;
  /** The generator model, `provider:model`. */
  generator: string;
  /** The file as `review` is to be given it. */
  shown: string;
}

/**
 * The YAML eval file of draft cases, with comments saying what they are and what to do with them.
 * Text the generator wrote is only ever a YAML value here (the `yaml` library quotes what needs it),
 * never a comment or a key.
 */
export async function draftEvalText(cases: readonly DraftCase[], file: DraftFile): Promise<string> {
  return writtenEvalText({
    suite: file.suite,
    target: file.target,
    cases,
    header: [
      `Drafted by \`agent-evals generate\` for target ${file.target} with ${file.generator}.`,
      'Every case is a draft (`draft: true`): `agent-evals run` skips it until a person accepts it in',
      `\`agent-evals review ${file.shown}\` (accept, edit or reject each).`,
      'The assertions are a skeleton of the tools the generator expected a correct agent to call',
      "(calledTool) or not (notCalledTool); a `reference` is the generator's answer, not a checked one.",
      'Ids are a hash of the input: drafting the same input again gives the same id.',
    ],
    eachCase: (doc, i) => {
      const assert = doc.getIn(['cases', i, 'assert'], true) as { commentBefore?: string | null } | undefined;
      if (assert && cases[i]!.assert.every((a) => a.type === 'lengthBetween')) assert.commentBefore = ' no tool of the target to check: replace with what the reply must do';
      const metadata = doc.getIn(['cases', i, 'metadata'], true) as { flow?: boolean } | undefined;
      if (metadata) metadata.flow = true;
    },
  });
}
