/**
 * A priced simulated-user run for the reporter tests: a user model on a fake OpenAI server
 * (gpt-4.1-mini, 1,000 input and 100 output tokens a call) writes two messages and then says the
 * goal is met (3 calls); a function target answers each turn at 100 + 10 tokens; the judge is `fake`.
 */
import type { Reporter } from '../../src/report/reporter.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from './fake-openai.js';
import type { FakeProvider, Scripted } from './fake-server.js';
import { runInProcess } from './run-in-process.js';

const USAGE = { input: 1000, output: 100 };
const say = (message: string): Scripted => ({ json: { done: false, goalMet: false, message }, usage: USAGE });

/** The user model's usage the run records: 3 calls at gpt-4.1-mini's $0.40 / $1.60 per million. */
export const USER_USAGE = { calls: 3, inputTokens: 3000, outputTokens: 300, costUsd: 0.00168 };

const desk: TargetFunction = (input, ctx) => {
  ctx.usage({ inputTokens: 100, outputTokens: 10, model: 'openai:gpt-4.1-mini' });
  return `Booked: ${input}`;
};

export async function simulatedUserRun(reporters: (dir: string) => Reporter[], fakes: FakeProvider[]) {
  const user = await startFakeOpenAI({ script: [say('Table for two?'), say('Friday at 7pm.'), { json: { done: true, goalMet: true, message: '' }, usage: USAGE }] });
  fakes.push(user);
  return runInProcess({
    files: {
      'evals/booking.eval.yaml': `suite: booking
target: desk
cases:
  - id: book-a-table
    simulatedUser:
      goal: Book a table for two on Friday at 7pm.
      model: { provider: openai, model: gpt-4.1-mini, baseURL: "${user.url}" }
      maxTurns: 5
    assert: [{ type: contains, value: Booked }]
`,
    },
    config: { targets: { desk }, judge: 'fake' },
    env: { OPENAI_API_KEY: 'test-key' },
    reporters,
  });
}
