import type { MessageTurn } from './chat-turn.js';
import type { InputPart } from './content-parts.js';
import type { Severity } from './results-schema.js';

/**
 * What a judged assertion gets when it sets no severity or threshold of its own: the config's
 * `judgeSeverity` and `judgeThreshold` (defaults `soft` and 0.7).
 */
export interface JudgedDefaults {
  severity: Severity;
  threshold: number;
}

/**
 * What a judge needs of a case, and nothing else of it: where it is written (for errors), what the
 * target was asked, the reference and history a criterion reads, the case's own judge and judged
 * defaults, and its assertions (the judges pick the judged ones by `type`). A planned case (suite/)
 * is one as it stands, so the judge wiring in judges/ never sees the suite's types.
 *
 * `Ref` is the case's judge reference: its type is the providers' zod schema (`ModelRef`), above
 * core, so judges/ names it (`JudgeSubject<ModelRef>`) and core stays at the bottom with plain data.
 */
export interface JudgeSubject<Ref = unknown> {
  /** `suite/id`: what a judge request and an error name. */
  readonly key: string;
  readonly file: string;
  readonly line: number | null;
  readonly input: string;
  /** The input's content parts, when given as parts (images and files the judge is shown). */
  readonly parts?: readonly InputPart[];
  /** The case's history ending with the user message (more than one turn: the judge reads it whole). */
  readonly messages: readonly MessageTurn[];
  readonly reference: string | undefined;
  /** Case judge, else suite judge (config and env come later in the resolution). */
  readonly judge: Ref | undefined;
  readonly judgeDefaults: JudgedDefaults;
  /** Its assertions and its turns' (the judged ones among them are known before the run). */
  readonly assertions: readonly { readonly type: string }[];
  readonly turns: readonly { readonly parts?: readonly InputPart[]; readonly assert?: readonly { readonly type: string }[] }[] | undefined;
}
