/** examples/frameworks/langchain: the LangGraph agent on ChatOpenAI, through fromLangChain and through ctx.fetch alone. */
import config from '../../examples/frameworks/langchain/evals.config.js';
import { describeFrameworkExample } from './framework-example.js';

describeFrameworkExample('langchain', config);
