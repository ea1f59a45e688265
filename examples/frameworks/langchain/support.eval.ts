/** The LangGraph support agent through its adapter, and once through ctx.fetch alone. */
import { defineEval } from 'agent-evals';
import { supportCases } from '../support-cases.js';

export default defineEval({
  suite: 'frameworks/langchain',
  target: 'langchain-support',
  cases: supportCases('langchain-support-fetch'),
});
