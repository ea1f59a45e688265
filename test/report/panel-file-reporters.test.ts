/**
 * A judge panel in the CI reporters, over a real run of three fake judges: JUnit's failure and the
 * GitHub annotation of a failed panel-judged assertion name the aggregate and each member's score and
 * verdict; both carry each panel's agreement (Fleiss' κ) as the terminal's summary does. A member's
 * reason is the judge's text: escaped in the XML, never markup.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { githubReporter } from '../../src/report/github.js';
import { junitReporter } from '../../src/report/junit.js';
import { removeTempDirs } from '../support/cli.js';
import { explain, runProjectInProcess, type FixtureRun } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

const IDS = ['one', 'two', 'three', 'four'];

/** A fixtures file: this member's score (and a reason) per case. */
const member = (scores: number[], reason = (id: string) => `says ${id}`) => scores.map((s, i) => `- case: panel/${IDS[i]}\n  score: ${s}\n  reason: "${reason(IDS[i]!)}"\n`).join('');

const config = {
  evals: ['*.eval.yaml'],
  targets: { fixed: () => 'Your order shipped on Monday.' },
  judges: { a: { provider: 'fake', fixtures: 'a.yaml' }, b: { provider: 'fake', fixtures: 'b.yaml' }, c: { provider: 'fake', fixtures: 'c.yaml' } },
  judge: { panel: ['a', 'b', 'c'], aggregate: 'majority' },
} as UserConfig;

describe('a judge panel in the JUnit and GitHub reporters', () => {
  let run: FixtureRun;
  let junit = '';
  let summaryMd = '';
  let annotations = '';
  beforeAll(async () => {
    // Threshold 0.7 (P pass, F fail); the same scores as test/judges/panels.test.ts, so κ = 1/3:
    //          one      two      three    four
    //   a      0.9 P    0.9 P    0.1 F    0.1 F
    //   b      0.2 F    0.9 P    0.1 F    0.9 P
    //   c      0.8 P    0.9 P    0.1 F    0.1 F
    // `four` fails: the majority (lower median) of 0.9, 0.1, 0.1 is 0.1.
    const cases = IDS.map((id) => `  - id: ${id}\n    input: where is my order?\n    assert:\n      - { type: judge, criteria: says when it shipped, threshold: 0.7, severity: gate }\n`).join('');
    let dir = '';
    run = await runProjectInProcess(
      {
        files: {
          'a.yaml': member([0.9, 0.9, 0.1, 0.1]),
          'b.yaml': member([0.2, 0.9, 0.1, 0.9], (id) => (id === 'four' ? '<b>shipped</b> & done' : `says ${id}`)),
          'c.yaml': member([0.8, 0.9, 0.1, 0.1]),
          'p.eval.yaml': `suite: panel\ntarget: fixed\ncases:\n${cases}`,
        },
      },
      config,
      {
        cache: false,
        reporters: (d) => {
          dir = d;
          return [junitReporter({ path: join(d, 'junit.xml') }), githubReporter({ out: { write: (text: string) => (annotations += text) }, summaryFile: join(d, 'summary.md') })];
        },
      },
    );
    junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    summaryMd = readFileSync(join(dir, 'summary.md'), 'utf8');
  }, 60_000);

  it("JUnit: the failed case's failure names the aggregate and each member's score and verdict, the reason escaped", () => {
    expect(run.code, explain(run)).toBe(1);
    const four = junit.match(/<testcase classname="panel" name="four"[\s\S]*?<\/testcase>/)?.[0] ?? '';
    const failure = four.match(/<failure [^>]*>([\s\S]*?)<\/failure>/)?.[1];
    expect(failure, junit).toBeDefined();
    expect(failure!.split('\n').slice(1)).toEqual([
      'panel majority: 0.10 (failed at 0.70)',
      '  a 0.10 failed says four',
      '  b 0.90 passed &lt;b&gt;shipped&lt;/b&gt; &amp; done',
      '  c 0.10 failed says four',
    ]);
    // A passing case has no failure and no member lines.
    expect(junit.match(/<testcase classname="panel" name="one"[\s\S]*?<\/testcase>/)?.[0]).not.toContain('panel majority');
  });

  it("JUnit: the suite carries each panel's agreement over the run as a property", () => {
    expect(junit).toContain(`<property name="judge-panel" value="a, b, c: Fleiss&apos; κ 0.33 over 4 judged assertions"/>`);
  });

  it("GitHub: the failed case's annotation names the aggregate and each member; the summary lists the panel's agreement", () => {
    const four = annotations.split('\n').find((l) => l.includes('title=panel/four'));
    expect(four, annotations).toContain('%0Apanel majority: 0.10 (failed at 0.70)%0A  a 0.10 failed says four%0A  b 0.90 passed <b>shipped</b> & done%0A  c 0.10 failed says four');
    expect(summaryMd).toContain("**Judge panel:** a, b, c: Fleiss' κ 0.33 over 4 judged assertions");
    // The summary's failures table names the members too, as plain text in the cell.
    const row = summaryMd.split('\n').find((l) => l.startsWith('| panel/four |'));
    expect(row).toContain('panel majority: 0.10 \\(failed at 0.70\\) a 0.10 failed says four b 0.90 passed \\<b\\>shipped\\</b\\> & done c 0.10 failed says four');
  });
});
