// `agent-evals generate`'s public face: the CLI reads the target and the examples, drafts cases here, and writes the file.
export { generateDrafts, OVERASK, type GenerateOptions, type GeneratedDrafts } from './generate-drafts.js';
export { draftEvalText, type DraftFile } from './draft-yaml.js';
export { DEFAULT_DEDUPE } from './near-duplicates.js';
export type { ExampleInput } from './generator-prompt.js';
export type { DraftCase } from './draft-cases.js';
