/**
 * examples/frameworks/langchain: the LangGraph agent on ChatOpenAI, through fromLangChain and through
 * ctx.fetch alone. Written for LangGraph 1.x (the newest line) and run on both lines: LangGraph 0.4
 * runs it alike.
 */
import type { UserConfig } from '../../src/config/define-config.js';
import { describeFrameworkExample } from './framework-example.js';

// Imported by a path TypeScript does not follow: the example is type-checked against the newest line
// alone (examples/tsconfig.json); @langchain/core 0.3 types its zod 4 tool schemas apart.
const example = '../../examples/frameworks/langchain/evals.config.js';
const { default: config } = (await import(example)) as { default: UserConfig };

describeFrameworkExample('langchain', config);
