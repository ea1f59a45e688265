import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminalReporter } from '../../src/report/terminal.js';
import { junitReporter } from '../../src/report/junit.js';
import { githubReporter, ghData } from '../../src/report/github.js';
import type { CaseResult, Summary } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { CaseView } from '../../src/report/reporter.js';
import { stripAnsi } from '../support/cli.js';

const usage = { target: emptyUsage(), judge: emptyUsage() };
const INJECTED = 'bad \x1b[2J\x1b[31mred</failure><x>&\n::error::forged';

function failingCase(): CaseResult {
  return {
    suite: 's',
    id: 'c',
    file: 'evals/s.eval.yaml',
    line: 7,
    tags: [],
    verdict: 'failed',
    passed: 0,
    required: 1,
    planned: 1,
    notRun: 0,
    score: { mean: 0, stddev: 0 },
    judgeScore: null,
    usage,
    trials: [
      {
        index: 0,
        verdict: 'failed',
        score: 0,
        durationMs: 5,
        reply: INJECTED,
        usage,
        trace: {},
        assertions: [{ name: 'contains "x"', kind: 'contains', severity: 'gate', status: 'failed', score: 0, threshold: 1, weight: 1, message: `contains "x": not found in ${INJECTED}` }],
      },
    ],
  };
}

const summary: Summary = {
  cases: { total: 1, passed: 0, failed: 1, scored: 0, skipped: 0 },
  trials: { planned: 1, run: 1, notRun: 0, passed: 0 },
  score: { mean: 0, stddev: 0 },
  usage: { target: emptyUsage(), judge: emptyUsage(), total: emptyUsage() },
  counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
  failures: [],
  warnings: [],
};
const run = { id: 'r', startedAt: '2026-01-01T00:00:00Z', durationMs: 10, gitSha: null, argv: [], config: null, interrupted: false };

describe('terminal reporter', () => {
  it('off a TTY writes the same text coalesced as line by line, all of it by the end of onEnd, and hears no trial', async () => {
    const texts: string[][] = [];
    for (const coalesce of [false, true]) {
      const writes: string[] = [];
      texts.push(writes);
      const r = terminalReporter({ out: { write: (t: string) => void writes.push(t) }, live: false, verbose: false, coalesce });
      // Its trials are counted for a live progress line only: off a TTY the runner need not make a trial's event.
      expect(r.onTrialEnd).toBeUndefined();
      await r.onBegin!({ runId: 'r', startedAt: '', config: null, cases: 2, trials: 2, concurrency: 1, strict: false });
      await r.onCaseEnd!(failingCase(), {} as CaseView);
      r.onWarning!('careful');
      await r.onCaseEnd!(failingCase(), {} as CaseView);
      if (coalesce) expect(writes).toEqual([]);
      await r.onEnd!({ run, summary, exitCode: 1 });
    }
    const [plain, gathered] = texts as [string[], string[]];
    expect(plain.length).toBeGreaterThan(3);
    expect(gathered).toHaveLength(1);
    expect(gathered.join('')).toBe(plain.join(''));
  });

  it('redraws the live progress line at most every 100 ms, however many trials end', async () => {
    let now = 0;
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: true, verbose: false, now: () => now });
    await r.onBegin!({ runId: 'r', startedAt: '', config: null, cases: 1, trials: 1000, concurrency: 50, strict: false });
    const draws = () => out.split('\r\x1b[2K').length - 1;
    const first = draws();
    for (let i = 0; i < 500; i++) r.onTrialEnd!({} as CaseView, failingCase().trials[0]!);
    expect(draws()).toBe(first); // all within the same instant
    now = 150;
    r.onTrialEnd!({} as CaseView, failingCase().trials[0]!);
    expect(draws()).toBe(first + 1);
    expect(out).toContain('501/1000 trials');
  });

  it('shows untrusted text with control characters made visible', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    await r.onCaseEnd!(failingCase(), {} as CaseView);
    expect(out).not.toContain('\x1b[2J');
    expect(out).toContain('\\x1b[2J');
  });
});

describe('terminal reporter: what is printed once, and where', () => {
  const passingCase = (id: string): CaseResult => ({ ...failingCase(), id, verdict: 'passed', passed: 1, trials: [{ ...failingCase().trials[0]!, verdict: 'passed', score: 1, assertions: [] }] });

  it('collects warnings and prints each once after the case lines, in the summary, with how often it came', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    r.onWarning!('model x has no known price');
    await r.onBegin!({ runId: 'r', startedAt: '', config: null, cases: 3, trials: 3, concurrency: 1, strict: false });
    await r.onCaseEnd!(passingCase('a'), {} as CaseView);
    r.onWarning!('target "t" left a timer running');
    await r.onCaseEnd!(passingCase('b'), {} as CaseView);
    r.onWarning!('model x has no known price');
    await r.onCaseEnd!(failingCase(), {} as CaseView);
    await r.onEnd!({ run, summary, exitCode: 1 });
    // Colours are on where CI is set (picocolors): read the text.
    const lines = stripAnsi(out).split('\n');
    const lastCase = lines.findIndex((l) => l.includes('s/c'));
    const heading = lines.findIndex((l) => /^Warnings\s+2$/.test(l));
    expect(heading).toBeGreaterThan(lastCase);
    expect(heading).toBeGreaterThan(lines.findIndex((l) => l.startsWith('Cases ')));
    expect(lines.slice(heading + 1, heading + 3)).toEqual(['  ! model x has no known price (2 times)', '  ! target "t" left a timer running']);
    expect(out.split('no known price')).toHaveLength(2);
  });

  it('on a TTY counts the warnings on the progress line meanwhile, drawing none before the header', async () => {
    let now = 0;
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: true, verbose: false, now: () => now });
    r.onWarning!('early');
    expect(out).toBe('');
    await r.onBegin!({ runId: 'r', startedAt: '', config: null, cases: 1, trials: 2, concurrency: 1, strict: false });
    r.onWarning!('late');
    r.onWarning!('late');
    now = 150;
    r.onTrialEnd!({} as CaseView, failingCase().trials[0]!);
    expect(stripAnsi(out.slice(out.lastIndexOf('\r')))).toContain('1/2 trials · 0 failing · 150ms · ETA 150ms · 2 warnings');
  });

  it('prints the judge-noise flip rates of a case per assertion without -v, the case passing', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    const noise = { withinNoise: false, assertions: [{ name: 'relevance', trials: 2, reasks: 6, flips: 3, flipRate: 0.5, scoreStddev: 0.1, scoreRange: 0.3 }] };
    await r.onCaseEnd!({ ...passingCase('a'), judgeNoise: noise }, {} as CaseView);
    expect(out).toContain('judge noise: relevance flipped 3 of 6 re-asks (50%), score sd 0.10, range 0.30 (2 trials)');
    expect(out).not.toContain('within judge noise');
  });
});

describe('file reporters escape untrusted text', () => {
  it('junit: no markup from a reply survives, the document stays well formed', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-evals-junit-')), 'j.xml');
    const r = junitReporter({ path });
    await r.onCaseEnd!(failingCase(), {} as CaseView);
    await r.onEnd!({ run, summary, exitCode: 1 });
    const xml = readFileSync(path, 'utf8');
    expect(xml).toContain('&lt;/failure&gt;&lt;x&gt;&amp;');
    expect(xml).not.toContain('</failure><x>');
    expect(xml).not.toMatch(/\x1b/);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('github: an annotation at the case line; untrusted newlines cannot start a new command', async () => {
    let out = '';
    const r = githubReporter({ out: { write: (t: string) => (out += t) }, summaryFile: undefined });
    await r.onCaseEnd!(failingCase(), {} as CaseView);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=evals\/s\.eval\.yaml,line=7,title=s\/c failed 0\/1 \(needed 1\)::/);
    expect(ghData('a\nb%')).toBe('a%0Ab%25');
  });

  it('github: the annotation names the file relative to the workspace it is given', async () => {
    let out = '';
    const paths = { cwd: join('/', 'checkout', 'packages', 'bot'), workspace: join('/', 'checkout') };
    const r = githubReporter({ out: { write: (t: string) => (out += t) }, summaryFile: undefined, paths });
    await r.onCaseEnd!(failingCase(), {} as CaseView);
    expect(out).toMatch(/^::error file=packages\/bot\/evals\/s\.eval\.yaml,line=7,/);
  });
});

/** Every character that can restyle a log or reorder what its reader sees: ESC/CSI, OSC, BEL, C1, bidi. */
const HOSTILE = ['\x1b[31m', '\x1b]8;;http://x\x07', '\x07', '\x9b', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const RAW = /[\x07\x1b\x9b\u202a-\u202e\u2066-\u2069]/;

function hostileCase(): CaseResult {
  const c = failingCase();
  return { ...c, suite: `s${HOSTILE.join('')}`, id: `id\u202egnp.exe${HOSTILE.join('')}`, file: `evals/\u202es.eval.yaml` };
}

describe('terminal and github print no control or bidi character, ids included', () => {
  it('terminal: case ids and failure lines', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: true });
    await r.onCaseEnd!(hostileCase(), {} as CaseView);
    await r.onEnd!({ run, summary: { ...summary, failures: [`min score \u202e${HOSTILE.join('')}`] }, exitCode: 1 });
    expect(out).toContain('id\\u202egnp.exe');
    // The reporter's own colours aside (NO_COLOR is off here), nothing raw from the case survives.
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(RAW);
  });

  it('github: annotations and the step summary', async () => {
    let out = '';
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'agent-evals-gh-')), 'summary.md');
    const r = githubReporter({ out: { write: (t: string) => (out += t) }, summaryFile });
    await r.onBegin!({ runId: 'r', startedAt: '', config: null, cases: 1, trials: 1, concurrency: 1, strict: false });
    await r.onCaseEnd!(hostileCase(), {} as CaseView);
    await r.onEnd!({ run, summary, exitCode: 1 });
    expect(out).toMatch(/^::error file=evals\/\\u202es\.eval\.yaml/);
    expect(out).not.toMatch(RAW);
    const md = readFileSync(summaryFile, 'utf8');
    expect(md).toContain('gnp.exe');
    expect(md).not.toMatch(RAW);
  });
});
