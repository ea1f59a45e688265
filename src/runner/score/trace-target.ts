import type { AgentRun } from '../../core/agent-run.js';
import { AgentEvalsError } from '../../core/errors.js';
import type { Target } from '../../targets/types.js';

/**
 * A target that calls nothing: each scored case's one trial gets the agent run its trace recorded
 * (reply, tool calls, usage, model). `agent-evals score` puts one in place of every target.
 */
export function traceTarget(name: string, run: AgentRun): Target {
  return {
    name,
    // A trace is not instrumented by the run: what it holds is what its recorder wrote.
    untracedHint: 'the trace holds none (a JSONL trace line needs `toolCalls`, `[]` when the agent called no tool; a results trial, a target that recorded its tool calls)',
    run: () => Promise.resolve(run),
    // A TS suite's `check(t)` gets a session (it may call `t.send`): its first turn is the recorded
    // run. A conversation is recorded as its history and the reply to its last message, so no
    // further turn can be sent.
    openSession: () => {
      let sent = false;
      return Promise.resolve({
        send: () => {
          if (sent) return Promise.reject(new AgentEvalsError('a recorded trace holds no conversation to continue (t.send() has no reply to read)'));
          sent = true;
          return Promise.resolve(run);
        },
        close: () => Promise.resolve(),
      });
    },
  };
}
