// Types of bench/judge-cache-figures.mjs, for the tests that import it.
import type { MockStats } from './mock-llm.mjs';
import type { TargetFunction } from '../src/targets/function-target.js';

export const TOOL_DELAYS_MS: number[];
export interface CacheFigures {
  trials: number;
  judgments: number;
  callsMade: number;
  callsFromCache: number;
  hitRate: number;
  inputTokens: number;
  outputTokens: number;
  tokensSavedByCache: number;
  runnerAgrees: boolean;
}
export interface CacheRun {
  commit: string;
  figures: CacheFigures;
}
export function toolAgent(delays?: number[]): TargetFunction;
export function cacheFigures(results: unknown, mockStats: Pick<MockStats, 'judge' | 'judgeInputTokens' | 'judgeOutputTokens'>): CacheFigures;
export function cacheTable(run: CacheRun, before?: CacheRun): string;
