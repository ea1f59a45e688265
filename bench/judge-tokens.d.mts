// Types of bench/judge-tokens.mjs, for the tests that import it.
import type { MockStats } from './mock-llm.mjs';

export interface JudgeUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}
export interface JudgeFigures {
  judgments: number;
  inputTokensPerJudgment: number;
  outputTokensPerJudgment: number;
  requestBytesPerJudgment: number;
  messageCharsPerJudgment: number;
  userCharsPerJudgment: number;
  runnerAgrees: boolean | undefined;
}
export interface JudgeRun {
  commit?: string;
  rows: Array<JudgeFigures & { type: string; judge: string }>;
}
export function judgeUsageOf(results: unknown): JudgeUsage;
export function judgeFigures(
  mockStats: Pick<MockStats, 'judge' | 'judgeInputTokens' | 'judgeOutputTokens' | 'judgeRequestBytes' | 'judgeMessageChars' | 'judgeUserChars'>,
  runnerUsage?: JudgeUsage,
): JudgeFigures;
export function judgeTable(run: JudgeRun, before?: JudgeRun): string;
