// Types of bench/profile-top.mjs, for the tests that import it.
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}
export interface ProfileEntry {
  name: string;
  ms: number;
}
export interface ProfileSummary {
  totalMs: number;
  byFile: ProfileEntry[];
  byFunction: ProfileEntry[];
}
export function shortFile(url: string, root: string): string;
export function summarize(profiles: CpuProfile[], root?: string): ProfileSummary;
export function topTables(summary: ProfileSummary, top?: number): string;
export function readProfiles(path: string): CpuProfile[];
