/** The public API, imported by evals.config.ts and *.eval.ts files. */
export { defineConfig } from './config/define-config.js';
export type { UserConfig } from './config/define-config.js';
export { defineEval } from './suite/define-eval.js';
export type { EvalDefinition, EvalCase } from './suite/define-eval.js';
export type { CheckApi, RunView, AssertionHandle, JudgeHandle, JudgeBuilder } from './suite/check-api.js';
export type { TargetFunction, TargetContext } from './targets/function-target.js';
export type { AgentRun, Step, ToolCall } from './core/agent-run.js';
export type { TokenUsage, Usage } from './core/usage.js';
export type { AssertionContext } from './assertions/types.js';
export type { Results, CaseResult, TrialResult, AssertionResult } from './core/results-schema.js';
export { agentJudge } from './judges/agent-judge.js';
export type { AgentJudge, AgentJudgeConfig, JudgeGuards, GuardProfile } from './judges/agent-judge.js';
export { JudgeError, JudgeProtocolError } from './core/errors.js';
export type { JudgeErrorKind, Spent } from './core/errors.js';
export type { Judge, JudgeRequest, JudgeScore } from './core/judge-port.js';
export { tool } from './targets/tool.js';
export type { Tool, ToolContext, ToolDefinition } from './targets/tool.js';
export type { Target, TargetSession, TrialInput, ChatTurn } from './targets/types.js';
