import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonReporter } from '../../src/report/json.js';
import type { CaseResult, Summary } from '../../src/core/results-schema.js';
import { caseResult } from '../support/case-result.js';

const result = caseResult({ file: 'f', fingerprint: 'abc' });
const summary = { cases: { total: 1, passed: 1, failed: 0, scored: 0, skipped: 0 } } as Summary;

async function write(interrupted: boolean): Promise<{ path: string; baseline: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'save-baseline-'));
  const path = join(dir, 'results.json');
  const baseline = join(dir, 'baselines', 'main.json');
  const r = jsonReporter({ path, outputDir: dir, version: 'test', alsoTo: [baseline] });
  await r.onBegin!({ runId: 'r1', startedAt: 'now', config: null, cases: 1, trials: 1, concurrency: 1, strict: false });
  await r.onCaseEnd!(result, { index: 0, key: 's/c', suite: 's', id: 'c', file: 'f', line: 1, tags: [], targetName: 't', repeat: 1 });
  await r.onEnd!({ run: { id: 'r1', startedAt: 'now', durationMs: 1, gitSha: null, argv: [], config: null, interrupted }, summary, exitCode: interrupted ? 130 : 0 });
  return { path, baseline };
}

describe('--save-baseline through the JSON reporter', () => {
  it('writes the same document to the baseline path', async () => {
    const { path, baseline } = await write(false);
    expect(readFileSync(baseline, 'utf8')).toBe(readFileSync(path, 'utf8'));
    expect((JSON.parse(readFileSync(baseline, 'utf8')) as { cases: CaseResult[] }).cases[0]!.fingerprint).toBe('abc');
  });

  it('an interrupted run writes its results but saves no baseline', async () => {
    const { path, baseline } = await write(true);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(baseline)).toBe(false);
  });
});
