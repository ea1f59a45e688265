/**
 * A reporter is one descriptor in report/registry.ts: the `--reporter` help, the help's reporter
 * list, `--reporter` validation and the default path all derive from the registry. Shown by a
 * registry holding one throwaway descriptor more (what adding its line does), with no other edit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildReporters, reporterOption, reporterOutputs, reportersHelp } from '../../src/cli/reporters.js';
import { buildProgram } from '../../src/cli/program.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { REPORTERS, RESULTS_REPORTER } from '../../src/report/registry.js';
import type { ReporterDescriptor } from '../../src/report/descriptor.js';
import { reporterSpecProblem, resultsReporterOf } from '../../src/report/reporter-spec.js';
import { writesResults } from '../../src/cli/run-base.js';
import { reporterSpecs } from '../../src/config/run-settings.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(() => removeTempDirs());

/** The throwaway reporter: counts cases and writes the count at the end. */
const tally: ReporterDescriptor = {
  name: 'tally',
  summary: 'the number of cases, in a text file',
  file: { default: 'tally.txt' },
  load: async () => {
    const { writeFileSync } = await import('node:fs');
    return {
      create: (o) => {
        let cases = 0;
        return { onCaseEnd: () => void (cases += 1), onEnd: () => writeFileSync(o.path!, `${cases} cases\n`) };
      },
    };
  },
};
const withTally: readonly ReporterDescriptor[] = [...REPORTERS, tally];

const squash = (text: string) => text.replace(/\s+/g, ' ');

describe('the reporter registry', () => {
  it('the --reporter help names every registered reporter, and one more when the registry has one more', () => {
    const today = reporterOption().description;
    expect(today).toBe('terminal | json[=path] | junit[=path] | html[=path] | github[=path] | ./module.mjs[=path] (repeatable)');
    expect(reporterOption(withTally).description).toBe('terminal | json[=path] | junit[=path] | html[=path] | github[=path] | tally[=path] | ./module.mjs[=path] (repeatable)');
    expect(reportersHelp()).not.toContain('tally');
    expect(reportersHelp(withTally)).toMatch(/\n {2}tally +the number of cases, in a text file \(default file <outputDir>\/tally\.txt\)\n/);
  });

  it('the run command (what the CLI reference is generated from) carries the derived option line', async () => {
    const program = await buildProgram(['run', '--help']);
    const run = program.commands.find((c: Command) => c.name() === 'run')!;
    expect(squash(run.helpInformation())).toContain(squash(`--reporter <name[=path]> ${reporterOption().description}`));
    const rejudge = program.commands.find((c: Command) => c.name() === 'rejudge')!;
    expect(squash(rejudge.helpInformation())).toContain(squash(reporterOption(undefined, "; the config's `reporters` are for runs").description));
  });

  it('--reporter tally is exit 2 listing the registered names, and accepted with its default file once registered', () => {
    const ctx = { cwd: '/p', outputDir: '/p/.out', version: '0', verbose: false };
    expect(() => reporterOutputs(['tally'], ctx)).toThrow('--reporter: unknown reporter "tally" (known: terminal, json, junit, html, github; or a module path such as ./my-reporter.mjs)');
    expect(reporterOutputs(['tally'], ctx, withTally)).toEqual([{ path: '/p/.out/tally.txt', kind: 'file', field: 'tally reporter' }]);
    expect(() => reporterOutputs(['talley'], ctx, withTally)).toThrow('(known: terminal, json, junit, html, github, tally;');
    // The config's `reporters` check speaks the same words.
    expect(reporterSpecProblem('tally=t.txt', withTally)).toBeUndefined();
    expect(ConfigSchema.safeParse({ reporters: ['tally'] }).error?.issues[0]?.message).toBe(reporterSpecProblem('tally', REPORTERS));
  });

  it('a registered reporter is built from its descriptor and writes its file', async () => {
    const dir = tempDir();
    const ctx = { cwd: dir, outputDir: join(dir, '.out'), version: '0', verbose: false };
    const [r] = await buildReporters(['tally=t.txt'], ctx, withTally);
    expect(r!.name).toBe('tally');
    await r!.onCaseEnd!({} as never, {} as never);
    await r!.onEnd!({} as never);
    expect(readFileSync(join(dir, 't.txt'), 'utf8')).toBe('1 cases\n');
  });

  it('the results document is written by the reporter whose descriptor says so, and by another once the registry says it of that one', () => {
    expect(RESULTS_REPORTER).toBe('json');
    expect([['json'], ['terminal', 'json=out/r.json'], ['junit'], ['./json.mjs'], []].map((specs) => writesResults(specs))).toEqual([true, true, false, false, false]);
    // `--json` names it.
    expect(reporterSpecs({ reporters: [] }, { json: 'r.json' })).toEqual(['terminal', 'json=r.json']);
    const archive: ReporterDescriptor = { ...tally, name: 'archive', results: true };
    const moved = [...(REPORTERS as readonly ReporterDescriptor[]).map(({ results: _, ...d }) => d), archive];
    expect(resultsReporterOf(moved)).toBe('archive');
    expect([writesResults(['archive=a.json'], moved), writesResults(['json'], moved)]).toEqual([true, false]);
    expect(() => resultsReporterOf([...REPORTERS, archive])).toThrow('the reporter registry has 2 reporters that write the results document; it needs one');
  });

  it('a comma list is refused, naming each entry it holds; a path with a comma of its own is a path', () => {
    const ctx = { cwd: '/p', outputDir: '/p/.out', version: '0', verbose: false };
    const expected = 'one reporter per entry: "junit=x.xml,html" would be read as one; give "junit=x.xml" and "html" an entry each (on the command line, one --reporter each)';
    expect(() => reporterOutputs(['junit=x.xml,html'], ctx)).toThrow(`--reporter: ${expected}`);
    expect(ConfigSchema.safeParse({ reporters: ['junit=x.xml,html'] }).error?.issues[0]?.message).toBe(expected);
    expect(reporterSpecProblem('terminal, json,github', REPORTERS)).toContain('give "terminal", "json" and "github" an entry each');
    expect(reporterSpecProblem('junit=out,v2/x.xml', REPORTERS)).toBeUndefined();
  });

  it('a misspelt reporter names the one meant', () => {
    expect(reporterSpecProblem('htlm', REPORTERS)).toBe('unknown reporter "htlm": did you mean "html"? (known: terminal, json, junit, html, github; or a module path such as ./my-reporter.mjs)');
  });

  it('a reporter that writes no file refuses =path', () => {
    expect(reporterSpecProblem('terminal=x.txt', REPORTERS)).toBe('the terminal reporter writes no file: drop "=x.txt"');
  });
});
