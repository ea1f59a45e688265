/** A throwaway project on disk for CLI tests, and runs of it that tell whether a target was called. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { runCli, STACK_FRAME, tempDir, type CliResult, type CliRunner } from './cli.js';

/** Files by relative path, in a fresh temp dir. */
export function writeProject(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

export type MarkedRun = CliResult & { called: boolean };

/** `agent-evals run` in `dir` (spawned, or as `run` runs it); the project's targets write the file named by MARKER when called. */
export async function runMarked(dir: string, args: string[] = [], env: Record<string, string | undefined> = {}, run: CliRunner = runCli): Promise<MarkedRun> {
  const marker = join(dir, 'marker.txt');
  const r = await run(['run', ...args], { cwd: dir, env: { MARKER: marker, ...env } });
  return { ...r, called: existsSync(marker) };
}

/** Exit 2 with a plain message, no target called; returns stderr. */
export function expectStoppedBeforeTargets(r: MarkedRun): string {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.called, 'a target ran despite the bad input').toBe(false);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toContain('internal error');
  return r.stderr;
}
