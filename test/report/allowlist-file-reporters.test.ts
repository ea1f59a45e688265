/**
 * Tools called outside their allowlist in the CI reporters, over a real run: the JUnit suite whose case
 * made the call carries an `outside-allowlist` property naming the tool and the case (a suite without
 * such a call carries none); the GitHub step summary lists the same line. The tool name is the agent's
 * text: escaped in the XML and in the Markdown, never markup.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TargetContext } from '../../src/index.js';
import { githubReporter } from '../../src/report/github.js';
import { junitReporter } from '../../src/report/junit.js';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

/** A tool name that would be markup if a report parsed it. */
const TOOL = '<drop & "run">';

describe('tools outside an allowlist in the JUnit and GitHub reporters', () => {
  it('JUnit names them on the suite of the case that called them, GitHub in the step summary, both escaped', async () => {
    let dir = '';
    const run = await runInProcess({
      files: {
        'locked.eval.yaml': 'suite: locked\ntarget: agent\nonlyTools: [search]\ncases:\n  - { id: call, input: go, assert: [{ type: contains, value: done }] }\n',
        'open.eval.yaml': 'suite: open\ntarget: agent\ncases:\n  - { id: call, input: go, assert: [{ type: contains, value: done }] }\n',
      },
      config: {
        targets: {
          agent: async (_input: string, ctx: TargetContext) => {
            await ctx.tool('search', {}, async () => 'found');
            await ctx.tool(TOOL, {}, async () => 'dropped');
            return 'done';
          },
        },
      },
      reporters: (d) => {
        dir = d;
        return [junitReporter({ path: join(d, 'junit.xml') }), githubReporter({ out: { write: () => true }, summaryFile: join(d, 'summary.md') })];
      },
    });
    expect(run.results.summary.toolsOutsideAllowlist).toEqual([{ tool: TOOL, cases: ['locked/call'] }]);

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const suite = (name: string) => junit.match(new RegExp(`<testsuite name="${name}"[\\s\\S]*?</testsuite>`))?.[0] ?? '';
    expect(suite('locked')).toContain('<property name="outside-allowlist" value="Outside allowlist: &lt;drop &amp; &quot;run&quot;&gt; (locked/call)"/>');
    expect(suite('open')).not.toContain('outside-allowlist');

    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toContain('Outside allowlist: \\<drop & "run"\\> \\(locked/call\\)');
  });
});
