// Types of bench/mock-llm.mjs, for the tests that import it.
export interface MockStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  openai: number;
  anthropic: number;
  judge: number;
  judgeInputTokens: number;
  judgeOutputTokens: number;
  judgeRequestBytes: number;
  judgeMessageChars: number;
  judgeUserChars: number;
  cpuSeconds: number;
}
export interface MockLlm {
  url: string;
  stats(): MockStats;
  reset(): void;
  lastJudgeRequest(): string | undefined;
  close(): Promise<void>;
}
export function estimateTokens(text: string): number;
export function requestTokens(body: Record<string, unknown>): { inputTokens: number; messageChars: number; userChars: number };
export function startMockLlm(opts?: { latencyMs?: number; port?: number; maxLifetimeMs?: number }): Promise<MockLlm>;
