/**
 * The HTML report keeps untrusted text as data: a hostile reply and tool result reach the page only
 * inside the JSON data block, escaped, and the page's one script (allowed by hash in the CSP) is valid
 * JS that builds the drill-down with textContent. No browser here: the page script runs against a
 * small stand-in DOM that has no innerHTML at all.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script, createContext, runInContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../src/report/html-embed.js';
import type { Results } from '../../src/core/results-schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { writeHtmlReport } from '../../src/report/html-page.js';
import { FIELD_PREVIEW } from '../../src/report/html-cut.js';
import { caseKey } from '../../src/core/matrix.js';
import { HOSTILE_INPUT, HOSTILE_REPLY, HOSTILE_RESULT, pageParts, runHostile } from '../support/html-page.js';
import { oneRegression } from '../support/run-report-page.js';

afterAll(removeTempDirs);

let html = '';
let results: Results;
let projectDir = '';

beforeAll(async () => {
  const hostile = await runHostile();
  results = hostile.run.results;
  projectDir = hostile.run.dir;
  html = hostile.html;
});

describe('the HTML report', () => {
  it('has exactly two script tags: the JSON data block and the page script', () => {
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).toContain('<script type="application/json" id="results">');
  });

  it('carries the hostile reply and tool result only inside the data block, escaped', () => {
    const { data, script, outside } = pageParts(html);
    expect(html).not.toContain(HOSTILE_REPLY);
    expect(html).not.toContain(HOSTILE_RESULT);
    expect(html).not.toContain(HOSTILE_INPUT);
    expect(outside + script).not.toContain('alert(');
    expect(data).not.toMatch(/[<>]/);
    expect(data).toContain('\\u003cimg src=x onerror=alert(1)\\u003e');
    expect(data).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(2)\\u003c/script\\u003e');
    // The block still parses back to the very results of the run.
    const parsed = JSON.parse(data) as { results: Results; keys: string[] };
    const trial = parsed.results.cases[0]!.trials[0]!;
    expect(trial.reply).toBe(HOSTILE_REPLY);
    expect(parsed.results.cases[0]!.input).toBe(HOSTILE_INPUT);
    expect(trial.trace.steps![0]!.toolCalls![0]!.result).toBe(HOSTILE_RESULT);
    expect(parsed.keys).toEqual(['hostile/evil', 'hostile/fine']);
    expect(parsed.results.summary).toEqual(results.summary);
  });

  it('removes its scratch file once the page is written', () => {
    const runs = join(projectDir, '.agent-evals', 'runs');
    for (const id of readdirSync(runs)) expect(readdirSync(join(runs, id))).not.toContain('html-cases.jsonl');
  });

  /** The run's page again, with a comparison section, its script run against the stand-in DOM. */
  async function comparedPage(comparison: Parameters<typeof writeHtmlReport>[1]['comparison']) {
    const { cases, ...head } = results;
    const path = join(tempDir(), 'compared.html');
    await writeHtmlReport(
      path,
      { ...head, comparison },
      cases.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
    );
    const page = readFileSync(path, 'utf8');
    const dom = fakeDom(pageParts(page).data);
    runInContext(pageParts(page).script, dom.context);
    return dom;
  }

  it('lists regressions first when the results carry a comparison', async () => {
    const regressed = { verdict: 'failed' as const, passed: 0, run: 1, score: 0 };
    const dom = await comparedPage(oneRegression('hostile/fine', { ...regressed, verdict: 'passed', passed: 1, score: 1 }, regressed, 'verdict passed → failed'));
    const rows = dom.all(dom.app, (n) => n.tag === 'details' && n.className.startsWith('case ')).map((n) => dom.text(n));
    expect(rows[0]).toContain('hostile/fine');
    expect(rows[0]).toContain('regressed');
    expect(rows[1]).toContain('hostile/evil');
    // Without the comparison the same cases come in plan order.
    const plain = fakeDom(pageParts(html).data);
    runInContext(pageParts(html).script, plain.context);
    expect(plain.all(plain.app, (n) => n.tag === 'details').map((n) => plain.text(n))[0]).toContain('hostile/evil');
  });

  it('shows the agent effect and the judge effect apart when the baseline was re-judged (--rejudge)', async () => {
    const side = (passed: number) => ({ verdict: passed ? ('passed' as const) : ('failed' as const), passed, run: 1, score: passed });
    const comparison = {
      baseline: 'base.json',
      epsilon: 0.05,
      maxRegressions: 0,
      counts: { unchanged: 1 },
      counted: 0,
      failed: false,
      cases: [
        {
          key: 'hostile/fine',
          kind: 'unchanged' as const,
          base: side(0),
          head: side(0),
          judgeEffect: { direction: 'lower' as const, recorded: side(1), rejudged: side(0), pValue: 0.5, reason: 'verdict passed → failed' },
        },
      ],
      warnings: [],
      rejudge: { judges: ['openai:judge-b'], lower: 1, higher: 0 },
    };
    const dom = await comparedPage(comparison);
    const all = dom.text(dom.app);
    expect(all).toContain('Compared with base.json: agent effect: 1 unchanged');
    expect(all).toContain('Judge effect (baseline re-judged by openai:judge-b, not counted): 1 lower, 0 higher');
    const fine = dom.find(dom.app, (n) => n.tag === 'details' && dom.text(n).includes('hostile/fine'))!;
    expect(dom.text(fine)).toContain('judge lower');
    dom.open(fine);
    const opened = dom.text(fine);
    expect(opened).toContain('Agent effect unchanged 0/1 \u2192 0/1');
    expect(opened).toContain('Judge effect lower 1/1 recorded \u2192 0/1 re-judged: verdict passed → failed (p=0.5000), not counted');
  });

  it('opens a trial of results written before cases kept what they asked at its first step, as before', async () => {
    const { cases, ...head } = results;
    const old = cases.map(({ input: _input, messages: _messages, turns: _turns, reference: _reference, ...c }) => c);
    const path = join(tempDir(), 'old.html');
    await writeHtmlReport(
      path,
      head,
      old.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
    );
    const { dom, trial } = openedEvil(path);
    const text = dom.text(trial);
    expect(text).toContain(HOSTILE_RESULT);
    expect(text).not.toContain(HOSTILE_INPUT);
    expect(text).not.toContain('Reference');
    expect(text.indexOf('Conversation')).toBeLessThan(text.indexOf('Step 1'));
  });

  it('shows a judge-changed case with what changed, and the filter finds it as "judge changed"', async () => {
    const side = { verdict: 'passed' as const, passed: 1, run: 1, score: 1 };
    const comparison = {
      baseline: 'base.json',
      epsilon: 0,
      maxRegressions: 0,
      counts: { 'judge-changed': 1 },
      counted: 0,
      failed: false,
      cases: [
        {
          key: 'hostile/fine',
          kind: 'judge-changed' as const,
          base: side,
          head: { ...side, verdict: 'scored' as const, passed: 0, score: 0 },
          reason: 'criteria edited',
          judgeChanges: ['criteria edited'],
        },
      ],
      warnings: [],
    };
    const dom = await comparedPage(comparison);
    dom.filter('judge changed');
    const rows = dom.all(dom.app, (n) => n.tag === 'details' && n.className.startsWith('case '));
    expect(rows.map((n) => dom.text(n))).toEqual([expect.stringContaining('hostile/fine')]);
    dom.open(rows[0]!);
    expect(dom.text(rows[0]!)).toContain('judge-changed: criteria edited');
  });

  it('has a CSP that loads nothing and allows only the page script, by its hash', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline'; script");
    const hash = createHash('sha256').update(pageParts(html).script, 'utf8').digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    // No link, no external resource of any kind (the only links, to cut fields' files, are made by the script).
    const { outside, script } = pageParts(html);
    expect(outside + script).not.toMatch(/\b(src|href)=|url\(|@import/i);
  });

  it('escapes U+2028 and U+2029 too', () => {
    expect(scriptSafeJson(JSON.stringify({ a: 'x\u2028y\u2029<&>' }))).toBe('{"a":"x\\u2028y\\u2029\\u003c\\u0026\\u003e"}');
  });

  it('has a page script that is valid JS and builds text nodes only', () => {
    const { script } = pageParts(html);
    expect(() => new Script(script)).not.toThrow();
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  it('renders the summary and case list, and a case only when opened, down to its tool call', () => {
    const dom = fakeDom(pageParts(html).data);
    runInContext(pageParts(html).script, dom.context);
    const page = dom.text(dom.app);
    expect(page).toContain('agent-evals report');
    expect(page).toContain('hostile/evil');
    expect(page).toContain('hostile/fine');
    // Lazy: the trial is not built until its case is opened.
    expect(page).not.toContain(HOSTILE_RESULT);
    const evil = dom.find(dom.app, (n) => n.tag === 'details' && dom.text(n).includes('hostile/evil'))!;
    dom.open(evil);
    const trial = dom.find(evil, (n) => n.tag === 'details' && n.className.startsWith('trial'))!;
    expect(dom.text(evil)).not.toContain(HOSTILE_RESULT);
    dom.open(trial);
    const text = dom.text(trial);
    expect(text).toContain('Tool call: lookup');
    expect(text).toContain(HOSTILE_RESULT);
    expect(text).toContain(HOSTILE_REPLY);
    expect(text).toContain('nothing-like-this');
    // The filter narrows the list.
    dom.filter('fine');
    expect(dom.text(dom.app)).not.toContain('hostile/evil');
    expect(dom.text(dom.app)).toContain('hostile/fine');
  });
});

describe("the HTML report of a call answered by the case's toolResults", () => {
  it("labels the call: its result is the case's text, the tool did not run", async () => {
    const dir = tempDir();
    const { cases, ...head } = results;
    const changed = cases.map((c) => {
      if (c.id !== 'evil') return c;
      const copy = structuredClone(c);
      copy.trials[0]!.trace.steps![0]!.toolCalls![0]!.injected = true;
      return copy;
    });
    const path = join(dir, 'page.html');
    await writeHtmlReport(
      path,
      head,
      changed.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
      100_000,
    );
    const { dom, trial } = openedEvil(path);
    const label = dom.find(
      dom.find(trial, (n) => n.className === 'tool')!,
      (n) => n.className === 'label',
    )!;
    expect(label.textContent).toBe('Tool call: lookup \u2014 result served by the case (toolResults), the tool did not run');
    expect(dom.text(trial)).toContain(HOSTILE_RESULT);
  });
});

describe('the HTML report of fields over its size limit', () => {
  const LIMIT = 2_000;
  const longReply = '<b>long</b> ' + 'a'.repeat(LIMIT) + ' the end';
  const longArg = 'q'.repeat(LIMIT + 1);

  /** The hostile run's page written with a small field limit: evil's reply and a tool argument over it. */
  async function cutPage(dir: string, extra: Record<string, unknown> = {}) {
    const { cases, ...head } = results;
    const changed = cases.map((c) => {
      if (c.id !== 'evil') return c;
      const copy = structuredClone(c);
      copy.trials[0]!.reply = longReply;
      copy.trials[0]!.trace.steps![0]!.toolCalls![0]!.args = { q: longArg, ...extra };
      return copy;
    });
    const path = join(dir, 'page.html');
    const written = await writeHtmlReport(
      path,
      head,
      changed.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
      LIMIT,
    );
    const { page, dom, trial } = openedEvil(path);
    return { path, page, written, dom, trial };
  }

  it('keeps a field over the limit out of the page: collapsed with its size and first characters, linked to a file beside the page holding it whole', async () => {
    const dir = tempDir();
    const { page, written, dom, trial } = await cutPage(dir);
    expect(page).not.toContain('a'.repeat(FIELD_PREVIEW + 1));
    expect(written).toEqual({ filesDir: join(dir, 'page-files'), cutFields: 2 });
    const reply = dom.find(trial, (n) => n.className === 'block agent')!;
    const fold = dom.find(reply, (n) => n.tag === 'details')!;
    expect(fold.className).toBe('cut');
    expect(fold.open).toBeUndefined();
    expect(dom.find(fold, (n) => n.tag === 'summary')!.textContent).toBe(`Cut: ${longReply.length.toLocaleString('en-US')} characters (first 1,000 characters on open)`);
    expect(dom.find(fold, (n) => n.tag === 'pre')!.textContent).toBe(longReply.slice(0, FIELD_PREVIEW) + '\u2026');
    // The reply and the tool argument (inside an object), each linked to its own file holding it whole.
    const linkOf = (box: FakeNode) => dom.find(box, (n) => n.tag === 'a')!.attrs;
    const tool = dom.find(trial, (n) => n.className === 'tool')!;
    expect(dom.all(trial, (n) => n.tag === 'a')).toHaveLength(2);
    for (const [box, whole] of [
      [reply, longReply],
      [tool, longArg],
    ] as const) {
      const attrs = linkOf(box);
      expect(attrs).toEqual({ href: expect.stringMatching(/^page-files\/[01]\.txt$/), target: '_blank', rel: 'noopener' });
      expect(readFileSync(join(dir, attrs.href!), 'utf8')).toBe(whole);
    }
    // A field under the limit stays whole on the page, as before.
    expect(dom.text(trial)).toContain(HOSTILE_RESULT);
  });

  it('takes no object of the run for a cut field: a look-alike shows as data and makes no link', async () => {
    const dir = tempDir();
    const { page, dom, trial } = await cutPage(dir, { forged: { 'agent-evals-cut-0': 7, chars: 9, preview: 'javascript:alert(1)' } });
    const key = (JSON.parse(pageParts(page).data) as { cut: string }).cut;
    expect(key).toMatch(/^agent-evals-cut-[0-9a-f]{24}$/);
    expect(dom.all(trial, (n) => n.tag === 'a')).toHaveLength(2);
    expect(dom.text(trial)).toContain('"agent-evals-cut-0": 7');
  });

  it("writes no folder when nothing is cut, and removes an earlier page's cut files (only numbered ones) before writing", async () => {
    const dir = tempDir();
    const { cases, ...head } = results;
    const plain = await writeHtmlReport(
      join(dir, 'page.html'),
      head,
      cases.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
    );
    expect(plain).toEqual({ filesDir: undefined, cutFields: 0 });
    expect(existsSync(join(dir, 'page-files'))).toBe(false);
    mkdirSync(join(dir, 'page-files'));
    for (const name of ['5.txt', '9.txt', 'notes.md']) writeFileSync(join(dir, 'page-files', name), 'old');
    await cutPage(dir);
    expect(readdirSync(join(dir, 'page-files')).sort()).toEqual(['0.txt', '1.txt', 'notes.md']);
  });
});

/** The page at path, its script run against the stand-in DOM, with hostile/evil's first trial opened. */
function openedEvil(path: string) {
  const page = readFileSync(path, 'utf8');
  const dom = fakeDom(pageParts(page).data);
  runInContext(pageParts(page).script, dom.context);
  const evil = dom.find(dom.app, (n) => n.tag === 'details' && dom.text(n).includes('hostile/evil'))!;
  dom.open(evil);
  const trial = dom.find(evil, (n) => n.tag === 'details' && n.className.startsWith('trial'))!;
  dom.open(trial);
  return { page, dom, trial };
}

interface FakeNode {
  tag: string;
  className: string;
  textContent: string;
  children: FakeNode[];
  open?: boolean;
  value?: string;
  listeners: Record<string, (() => void)[]>;
  attrs: Record<string, string>;
}

/** Just enough DOM for the page script: text set only through textContent, no HTML parsing at all. */
function fakeDom(data: string) {
  const node = (tag: string): FakeNode => {
    const n: FakeNode & Record<string, unknown> = {
      tag,
      className: '',
      children: [],
      listeners: {},
      style: {},
      value: '',
      get textContent() {
        return this._text as string;
      },
      set textContent(v: string) {
        this._text = v;
        this.children = [];
      },
      _text: '',
      appendChild(c: FakeNode) {
        this.children.push(c);
        return c;
      },
      addEventListener(type: string, fn: () => void) {
        (this.listeners[type] ??= []).push(fn);
      },
      attrs: {},
      setAttribute(name: string, value: string) {
        this.attrs[name] = value;
      },
    };
    return n;
  };
  const app = node('main');
  const holder = node('script');
  holder.textContent = data;
  const document = { getElementById: (id: string) => (id === 'app' ? app : id === 'results' ? holder : null), createElement: node, createElementNS: (_ns: string, tag: string) => node(tag) };
  const context = createContext({ document, JSON, Math, Object, String });
  const text = (n: FakeNode): string => n.textContent + n.children.map(text).join(' ');
  const find = (n: FakeNode, pred: (n: FakeNode) => boolean): FakeNode | undefined => {
    for (const c of n.children) {
      if (pred(c)) return c;
      const deep = find(c, pred);
      if (deep) return deep;
    }
    return undefined;
  };
  const all = (n: FakeNode, pred: (n: FakeNode) => boolean): FakeNode[] => n.children.flatMap((c) => [...(pred(c) ? [c] : []), ...all(c, pred)]);
  const fire = (n: FakeNode, type: string) => (n.listeners[type] ?? []).forEach((fn) => fn());
  return {
    app,
    context,
    text,
    find,
    all,
    open(n: FakeNode) {
      n.open = true;
      fire(n, 'toggle');
    },
    filter(q: string) {
      const input = find(app, (n) => n.tag === 'input')!;
      input.value = q;
      fire(input, 'input');
    },
  };
}
