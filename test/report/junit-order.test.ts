/**
 * JUnit lists cases in plan order, whatever order they finished in: the first case of the plan is
 * held until the others have ended (an ordering, not a clock), and still comes first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitReporter } from '../../src/report/junit.js';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

const EVALS = `suite: order
target: agent
cases:
  - { id: first, input: first, assert: [{ type: contains, value: ok }] }
  - { id: second, input: second, assert: [{ type: contains, value: ok }] }
  - { id: third, input: third, assert: [{ type: contains, value: nope }] }
`;

describe('the JUnit reporter', () => {
  it('writes testcases in plan order when they finish in another', async () => {
    const ended: string[] = [];
    let othersEnded!: () => void;
    const othersDone = new Promise<void>((resolve) => (othersEnded = resolve));
    let junitPath = '';
    const run = await runInProcess({
      files: { 'order.eval.yaml': EVALS },
      config: {
        targets: {
          agent: async (input: string) => {
            if (input === 'first') await othersDone;
            return 'ok';
          },
        },
        concurrency: 3,
      },
      reporters: (dir) => {
        junitPath = join(dir, 'junit.xml');
        return [
          {
            name: 'spy',
            onCaseEnd: (r) => {
              ended.push(r.id);
              if (ended.includes('second') && ended.includes('third')) othersEnded();
            },
          },
          { name: 'junit', ...junitReporter({ path: junitPath }) },
        ];
      },
    });
    expect(ended.at(-1)).toBe('first');
    expect(run.results.cases.map((c) => c.id)).toEqual(['first', 'second', 'third']);
    const names = [...readFileSync(junitPath, 'utf8').matchAll(/<testcase classname="order" name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(['first', 'second', 'third']);
  });
});
