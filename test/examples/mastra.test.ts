/**
 * examples/frameworks/mastra: the Mastra 1.x agent on `@ai-sdk/openai` 4, through fromMastra and
 * through ctx.fetch alone. The example is written for the newest line (Mastra 1.x tools take
 * `execute(inputData, context)`, and its provider is the one released with `ai` 7), so it runs there;
 * the previous line (Mastra 0.24) covers the adapter in test/adapters/mastra.test.ts.
 */
import { describe } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { installedMajor } from '../support/framework-line.js';
import { describeFrameworkExample } from './framework-example.js';

describe.runIf((installedMajor('@mastra/core') ?? 0) >= 1)('examples/frameworks/mastra (Mastra 1.x; skipped on the previous line, Mastra 0.24)', async () => {
  // Imported only on Mastra 1.x, by a path TypeScript does not follow: the example is type-checked
  // against the newest line alone (examples/tsconfig.json), never against the root's Mastra 0.24.
  const example = '../../examples/frameworks/mastra/evals.config.js';
  const { default: config } = (await import(example)) as { default: UserConfig };
  describeFrameworkExample('mastra', config);
});
