/**
 * Live example: a model writes SQL for a question about the store's orders, and an agent-loop
 * judge checks it by running it (run_sql, read-only, against an in-memory copy of the orders) and
 * comparing the rows with what the question asks — evidence the SQL text alone does not carry.
 *
 *   OPENAI_API_KEY=... npx agent-evals run --config evals.live.config.ts
 *
 * The SQL writer and the judge use OpenAI when OPENAI_API_KEY is set, else Anthropic;
 * LIVE_JUDGE_MODEL (`provider:model`) picks another judge model.
 */
import { agentJudge, defineEval, type TargetContext } from 'agent-evals';
import { ORDERS_SCHEMA, sqlRunner } from '../../evals/tools/sql-runner.js';

const LIVE_JUDGE_MODEL = process.env.LIVE_JUDGE_MODEL ?? (process.env.OPENAI_API_KEY || !process.env.ANTHROPIC_API_KEY ? 'openai:gpt-5.4-mini' : 'anthropic:claude-haiku-5-5');

const sqlJudge = agentJudge(() => ({
  model: LIVE_JUDGE_MODEL,
  tools: [sqlRunner],
  guards: { maxSteps: 5, maxTokens: 20_000, timeoutMs: 60_000 },
}));

const INSTRUCTIONS = `You translate questions about a store's orders into one SQLite SELECT statement. Tables: ${ORDERS_SCHEMA}. Answer with the SQL only: no prose, no code fences.`;

/** The target: one model call that writes the SQL; its usage counts as target usage. */
async function sqlWriter(question: string, ctx: TargetContext): Promise<string> {
  let text: string;
  if (process.env.OPENAI_API_KEY || !process.env.ANTHROPIC_API_KEY) {
    const openai = await ctx.openai();
    const res = await openai.chat.completions.create(
      {
        // A reasoning model: no temperature (refused unless reasoning effort is none).
        model: 'gpt-5.4-mini',
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: question },
        ],
      },
      { signal: ctx.signal },
    );
    text = res.choices[0]?.message.content ?? '';
  } else {
    const claude = await ctx.anthropic();
    // Claude Haiku 5.5 thinks by default, and thinking counts against max_tokens: leave it room.
    const res = await claude.messages.create({ model: 'claude-haiku-5-5', max_tokens: 4000, system: INSTRUCTIONS, messages: [{ role: 'user', content: question }] }, { signal: ctx.signal });
    text = res.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  }
  return text.replace(/^\s*```(?:sql)?\s*|\s*```\s*$/gi, '').trim();
}

const RETURNS_RIGHT_ROWS =
  'The reply is one SQL query that answers the question. Run it with run_sql, and run your own queries to find the right answer; ' +
  'score 1 only if its rows answer the question exactly. In evidence, give the rows it returned and the rows expected.';

export default defineEval({
  suite: 'live/agent-judge-sql',
  target: sqlWriter,
  tags: ['live', 'agent-judge', 'sql'],
  cases: [
    {
      id: 'late-deliveries',
      input: 'Which orders (ids) were delivered more than 30 days ago?',
      check: (t) => {
        t.regex('^\\s*(select|with)\\b', 'i');
        t.judge(sqlJudge).criteria(RETURNS_RIGHT_ROWS);
      },
    },
    {
      id: 'unrefunded-total',
      input: 'What is the total value in USD of all orders that have not been refunded?',
      check: (t) => {
        t.regex('^\\s*(select|with)\\b', 'i');
        t.judge(sqlJudge).criteria(RETURNS_RIGHT_ROWS);
      },
    },
    {
      id: 'items-of-order',
      input: 'List the item names and quantities of order A1049.',
      check: (t) => {
        t.regex('^\\s*(select|with)\\b', 'i');
        t.judge(sqlJudge).criteria(RETURNS_RIGHT_ROWS);
      },
    },
  ],
});
