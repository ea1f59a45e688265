/**
 * A load error costs at most one more read of the file: the issues' lines come from one js-yaml pass
 * that follows their paths, never from `yaml`'s document model of the whole file (which made the
 * 50 MB case 6–18× slower and 7× larger than loading it valid; bench/RESULTS.md, "Load errors").
 * The work is counted, not timed: the CLI runs with test/support/yaml-reads/register.mjs, which
 * passes every js-yaml `load` and `yaml` `parseDocument` through to the real library and counts it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badLine, bigEvalText, casesForBytes } from '../../bench/big-eval-file.mjs';
import { REPO_ROOT, removeTempDirs, runCli, tempDir, type CliResult } from '../support/cli.js';

afterAll(removeTempDirs);

const COUNTER = join(REPO_ROOT, 'test', 'support', 'yaml-reads', 'register.mjs');

/** `agent-evals list` in a project holding `text` as its one eval file, with the YAML reads it made. */
async function list(text: string): Promise<CliResult & { reads: { jsYaml: number; yamlDocument: number } }> {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.eval.yaml'), text);
  writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], targets: { agent: async () => 'ok' } };\n");
  const readsFile = join(dir, 'reads.json');
  const result = await runCli(['list'], { cwd: dir, env: { NODE_OPTIONS: `--import ${COUNTER}`, YAML_READS_FILE: readsFile }, timeoutMs: 120_000 });
  return { ...result, reads: JSON.parse(readFileSync(readsFile, 'utf8')) as { jsYaml: number; yamlDocument: number } };
}

// The reads are counted, not timed, so the size is not what is checked: 256 KB (a few hundred cases)
// is more than one read chunk and keeps the bad field far from the start; the bench's 50 MB is for timing.
const CASES = casesForBytes(256 * 1024);

// Each test spawns the CLI (the counter hooks its module loading); a busy machine gets room.
describe('load errors cost no more than loading the valid file', { timeout: 120_000 }, () => {
  it('a bad field in the last case of a 256 KB file: exit 2 with its line, from one more js-yaml read and no yaml document', async () => {
    const valid = await list(bigEvalText(CASES, false));
    expect(valid.code).toBe(0);
    expect(valid.reads).toEqual({ jsYaml: 1, yamlDocument: 0 });

    const bad = await list(bigEvalText(CASES, true));
    expect(bad.code).toBe(2);
    const field = `cases[${CASES - 1}].assert[5]`;
    expect(bad.stderr).toContain(`big.eval.yaml:${badLine(CASES)}: ${field}.valeu: unknown field "valeu"`);
    expect(bad.stderr).toContain(`big.eval.yaml:${badLine(CASES)}: ${field}.value: Invalid input: expected string, received undefined`);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(bad.reads).toEqual({ jsYaml: 2, yamlDocument: 0 });
  });

  it('a bad field in every case: the first ten issues, all located by the same one extra read', async () => {
    const bad = await list(bigEvalText(200, false).replace(/value: (A\d+) \}/g, 'valeu: $1 }'));
    expect(bad.code).toBe(2);
    // Two issues a case (the missing "value", the unknown "valeu"), each at its case's bad field.
    const lines = [...bad.stderr.matchAll(/big\.eval\.yaml:(\d+): /g)].map((m) => Number(m[1]));
    expect(lines).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4].map((i) => 5 + 13 * i + 12));
    expect(bad.reads).toEqual({ jsYaml: 2, yamlDocument: 0 });
  });
});
