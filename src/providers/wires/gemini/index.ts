/**
 * The Gemini API's generateContent (wire id google, as its home provider): the wire of the google provider. Its provider
 * loads `@google/genai` on first use, an optional peer dependency: a run that names the provider
 * without it installed stops before any target runs, naming the package (create.ts reads
 * `sdkPackage`). No batch API and no embeddings endpoint here: judges' calls are made live.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { GEMINI_BODIES } from './bodies.js';
import { GEMINI_SDK_PACKAGE, GEMINI_TABLE } from './facts.js';

export const GEMINI_WIRE: WireDescriptor = {
  ...GEMINI_TABLE,
  label: 'Gemini API',
  tokenField: 'maxOutputTokens',
  homeProvider: 'google',
  sdkPackage: GEMINI_SDK_PACKAGE,
  // The API takes a request without a limit (the model's own maximum applies).
  defaultMaxTokens: () => undefined,
  provider: async (s) => new (await import('./gemini.js')).GeminiProvider(s),
  bodies: GEMINI_BODIES,
};
