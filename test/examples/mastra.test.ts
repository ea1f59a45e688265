/** examples/frameworks/mastra: the Mastra agent on the AI SDK v5 OpenAI provider, through fromMastra and through ctx.fetch alone. */
import config from '../../examples/frameworks/mastra/evals.config.js';
import { describeFrameworkExample } from './framework-example.js';

describeFrameworkExample('mastra', config);
