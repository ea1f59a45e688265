import type { JudgeRequest } from '../core/judge-port.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * The request with the run's secret values redacted in everything a judge reads: the graded text,
 * the input, the conversation, instructions, the target's run (reply, steps, tool data) and the
 * criterion (a pairwise's other answer, a reference). Applied once, where the service builds the
 * request, so every judge (inference, pairwise, agent, prompt callable, a batch line) and the
 * cache key see only the redacted text: a judge may be another provider than the target.
 */
export function redactJudgeRequest(req: JudgeRequest, redactor: SecretRedactor | undefined): JudgeRequest {
  if (!redactor || redactor.values.length === 0) return req;
  const r = <T>(v: T): T => redactor.redactDeep(v);
  return {
    ...req,
    criterion: r(req.criterion),
    output: redactor.redact(req.output),
    input: redactor.redact(req.input),
    run: r(req.run),
    ...(req.transcript ? { transcript: r(req.transcript) } : {}),
    ...(req.instructions !== undefined ? { instructions: redactor.redact(req.instructions) } : {}),
    ...(req.reportedInstructions !== undefined ? { reportedInstructions: redactor.redact(req.reportedInstructions) } : {}),
  };
}
