/**
 * Running the built CLI's `main` in-process over a judges fixture project (test/fixtures/judges-*),
 * with the judge's provider pointed at a fake server and a fresh output directory per run.
 * Judge-related variables of the worker's environment are unset for the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { fixtureDir, readCountFile, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Script } from '../support/fake-server.js';

/** Variables that would change which judge runs or where it connects: removed unless a test sets them. */
const JUDGE_ENV = ['EVALS_JUDGE_PROVIDER', 'EVALS_JUDGE_MODEL', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'JUDGE_SPEC', 'CONFIG_JUDGE'];

export interface JudgeCliRun extends CliResult {
  outDir: string;
  jsonPath: string;
  /** Target calls, one `suite/id#trial` line each. */
  calls(): string[];
  results(): Results;
}

export interface JudgeCliOptions {
  env?: Record<string, string | undefined>;
  /** Reuse an output directory (and so its judge cache) across runs. */
  outDir?: string;
  /** Append `--json <tmp>/results.json` (default true). */
  json?: boolean;
}

export async function runJudgeCli(fixture: string, args: string[], opts: JudgeCliOptions = {}): Promise<JudgeCliRun> {
  const tmp = tempDir('agent-evals-judges-cli-');
  const outDir = opts.outDir ?? join(tmp, 'out');
  const jsonPath = join(tmp, 'results.json');
  const countFile = join(tmp, 'calls.txt');
  const env: Record<string, string | undefined> = Object.fromEntries(JUDGE_ENV.map((k) => [k, undefined]));
  Object.assign(env, { OUT_DIR: outDir, COUNT_FILE: countFile }, opts.env);
  const fullArgs = opts.json === false ? args : [...args, '--json', jsonPath];
  const result = await runCliInProcess(fullArgs, { cwd: fixtureDir(fixture), env });
  return { ...result, outDir, jsonPath, calls: () => readCountFile(countFile), results: () => readResults(jsonPath) };
}

export function readResults(path: string): Results {
  expect(existsSync(path), `results file ${path} was not written`).toBe(true);
  const parsed = ResultsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), `${path} fails ResultsSchema`).toEqual([]);
  return parsed.data!;
}

export function caseOf(results: Results, key: string) {
  const found = results.cases.find((c) => `${c.suite}/${c.id}` === key);
  if (!found) throw new Error(`no case ${key} in results (has ${results.cases.map((c) => `${c.suite}/${c.id}`).join(', ')})`);
  return found;
}

export function explain(r: CliResult): string {
  return `exit ${r.code}${r.signal ? ` (signal ${r.signal})` : ''}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

/** A valid passing rubric answer for every request. */
export const passing: Script = () => ({ json: { score: 0.9, reason: 'says where the order is', evidence: ['shipped yesterday'] } });

export async function fakeOpenAI(script: Script = passing): Promise<FakeProvider> {
  return startFakeOpenAI({ script });
}

export async function fakeAnthropic(script: Script = passing): Promise<FakeProvider> {
  return startFakeAnthropic({ script });
}

/** Env pointing the OpenAI provider at a fake, with a dummy key. */
export function openaiEnv(fake: FakeProvider): Record<string, string> {
  return { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' };
}

export function anthropicEnv(fake: FakeProvider): Record<string, string> {
  return { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key' };
}

/**
 * A throwaway project: `evals.config.mjs` with YAML evals, a fixed-reply target `agent` and the
 * given extra config keys (JS source), plus the given eval files.
 */
export function tempProject(configKeys: string, files: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'evals.config.mjs'), `export default {\n  evals: ['*.eval.yaml'],\n  targets: { agent: () => 'Order A1 shipped.' },\n${configKeys}\n};\n`);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
