import { relative } from 'node:path';
import { UserError } from '../core/errors.js';
import type { UserAssertions } from '../assertions/user-assertion.js';
import { loadYamlEvalFile } from './load-yaml.js';
import { loadTsEvalFile } from './load-ts.js';
import type { Scoring } from './load-score-file.js';
import type { TsAssertionSpec } from './schema.js';

/**
 * `agent-evals score --suite <name>`: the suite's suite-level assertions (`assert`, with its
 * `onlyTools` and `judge`; a TS suite's `check` too), the ones it applies to every dataset row, as
 * a scoring that matches every trace. Its cases' own assertions are not taken: each was written for
 * its case's input, not for whatever a production user asked.
 */
export async function suiteScoring(files: readonly string[], name: string, opts: { cwd: string; userAssertions?: UserAssertions; loadTimeoutMs?: number }): Promise<Scoring> {
  const seen: string[] = [];
  for (const file of files) {
    const display = relative(opts.cwd, file) || file;
    const suites = /\.ya?ml$/.test(file)
      ? [{ data: (await loadYamlEvalFile(file, display, opts.userAssertions)).data, check: undefined }]
      : (await loadTsEvalFile(file, display, opts.loadTimeoutMs, opts.userAssertions)).map((l) => ({ data: l.data, check: l.data.check }));
    for (const { data, check } of suites) {
      seen.push(data.suite);
      if (data.suite !== name) continue;
      const assertions = (data.assert ?? []) as TsAssertionSpec[];
      if (assertions.length === 0 && !check)
        throw new UserError(
          `suite "${name}" has no suite-level \`assert\` (a suite has one when it runs a dataset): \`score --suite\` takes only those; write a scoring file (*.score.yaml) and give it with --scoring`,
          { file: display, field: '--suite' },
        );
      return {
        name,
        file: display,
        line: null,
        ...(data.judge ? { judge: data.judge } : {}),
        ...(data.onlyTools ? { onlyTools: data.onlyTools } : {}),
        assertions,
        ...(check ? { check: check } : {}),
      };
    }
  }
  throw new UserError(`no suite "${name}" in the eval files (suites: ${[...new Set(seen)].join(', ') || 'none'})`, { field: '--suite' });
}
