/**
 * The drafts review (`agent-evals review <file.eval.yaml>`): what the page shows of each draft case
 * and what it posts back. One definition, shared by the eval-file edits (suite/), the server
 * (report/) and the page's script (page/, types only).
 */

/** One draft case as the page shows it (every text by textContent only). */
export interface DraftItem {
  id: string;
  /** 1-based line of the case in the eval file. */
  line: number;
  /** The case's input when it is one text (the page can edit it); else absent and `asked` shows what it asks. */
  input?: string;
  /** What the case asks when it is not one text (content parts, messages, turns), as YAML. */
  asked?: string;
  reference?: string;
  /** `metadata.intent`, `metadata.kind`, `metadata.generatedBy` when they are texts. */
  intent?: string;
  kind?: string;
  generatedBy?: string;
  /** The case's `assert` list as YAML text, as the edit box holds it. */
  assert: string;
}

/** What the page posts: accept (drop the mark), reject (remove the case), or edit (the draft stays a draft). */
export type DraftAction =
  | { action: 'accept'; id: string }
  | { action: 'reject'; id: string }
  | {
      action: 'edit';
      id: string;
      /** The new input text (only for a case whose input is one text). */
      input?: string;
      /** The new reference; empty removes it. */
      reference?: string;
      /** The new `assert` list, as YAML text. */
      assert?: string;
    };

/** An action's outcome: the file's drafts as it now holds them, or why nothing was written. */
export type DraftOutcome =
  | { ok: true; drafts: DraftItem[]; done: string }
  /** `gone`: the draft is no longer in the file (rejected, accepted or renamed elsewhere); `invalid`: the edit was refused, the file unchanged. */
  | { ok: false; why: 'gone' | 'invalid'; message: string };

/** The drafts page's data block, as the server writes it and the page's script reads it. */
export interface DraftPageData {
  /** The eval file, as the terminal names it. */
  file: string;
  drafts: DraftItem[];
}
