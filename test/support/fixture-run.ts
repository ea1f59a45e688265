/** Runs the CLI in a fixture project with per-test output, count file and results paths. */
import { join } from 'node:path';
import { expect } from 'vitest';
import { STACK_FRAME, fixtureDir, readCountFile, runCli, spawnCli, tempDir, type CliResult, type CliRunner, type SpawnedCli } from './cli.js';
import { readResults } from './results-helpers.js';
import type { Results } from '../../src/core/results-schema.js';

export interface FixtureRun extends CliResult {
  tmp: string;
  /** Where `--json` writes when the args contain the token `$JSON`. */
  jsonPath: string;
  /** Target invocations, one `suite/id#trial` per call. */
  calls(): string[];
  /** The results document, validated (zod + JSON Schema). */
  results(): Results;
}

export interface FixtureSetup {
  tmp: string;
  jsonPath: string;
  env: Record<string, string>;
  args: string[];
  cwd: string;
}

/** `$JSON` in args stands for a results path in the test's own temp dir. */
export function setupFixture(fixture: string, args: string[]): FixtureSetup {
  const tmp = tempDir();
  const jsonPath = join(tmp, 'results.json');
  return {
    tmp,
    jsonPath,
    env: { COUNT_FILE: join(tmp, 'calls.txt'), OUT_DIR: join(tmp, 'out'), RELEASE_FILE: join(tmp, 'release') },
    args: args.map((a) => (a === '$JSON' ? jsonPath : a)),
    cwd: fixtureDir(fixture),
  };
}

/** The CLI in the fixture project, spawned (or as `run` runs it, e.g. `runCliInProcess`). */
export async function runFixture(fixture: string, args: string[], run: CliRunner = runCli, timeoutMs = 60_000): Promise<FixtureRun> {
  const s = setupFixture(fixture, args);
  const result = await run(s.args, { cwd: s.cwd, env: s.env, timeoutMs });
  return {
    ...result,
    tmp: s.tmp,
    jsonPath: s.jsonPath,
    calls: () => readCountFile(s.env.COUNT_FILE!),
    results: () => readResults(s.jsonPath),
  };
}

export function spawnFixture(fixture: string, args: string[], timeoutMs = 60_000): SpawnedCli & { setup: FixtureSetup } {
  const s = setupFixture(fixture, args);
  return { ...spawnCli(s.args, { cwd: s.cwd, env: s.env, timeoutMs }), setup: s };
}

/** A readable dump for assertion messages. */
export function explain(r: CliResult): string {
  return `exit ${r.code}${r.signal ? ` (signal ${r.signal})` : ''}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

/** Exit 2, no target called, no results, no stack trace; returns stderr. */
export function expectUsageError(r: FixtureRun): string {
  expect(r.code, explain(r)).toBe(2);
  expect(r.calls(), 'a target ran despite the bad input').toEqual([]);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stdout).not.toContain('(needed');
  return r.stderr;
}
