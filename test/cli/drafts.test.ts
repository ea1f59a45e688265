/**
 * Draft cases (`draft: true`, as `agent-evals generate` writes them) in the commands that plan cases:
 * the CLI's own planning (prepareCases, in-process) and the built CLI's `main` in-process for what
 * the command prints, its exit code and the results it writes. A run skips drafts unless
 * --include-drafts and counts them (summary.draftsSkipped); a selection of drafts alone is exit 2;
 * `list` marks them; a skipped draft makes no run partial and no shard plan differ; `merge` keeps the
 * count; `draft` is no part of a case's fingerprint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCases } from '../../src/cli/prepare.js';
import { caseFingerprint } from '../../src/suite/fingerprint.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { UserError } from '../../src/core/errors.js';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess } from '../support/cli-in-process.js';
import { DRAFTS_CONFIG, draftProject, generatedEvalFile, GENERATED } from '../support/draft-project.js';

afterAll(removeTempDirs);

/** Two reviewed cases the agent passes, in a file of their own. */
const REAL = `suite: real
target: agent
cases:
  - { id: order, input: "Where is order C3?", assert: [{ type: calledTool, tool: lookup_order }] }
  - { id: faq, input: "Opening hours?", assert: [{ type: calledTool, tool: search_faq }] }
`;
const DRAFT_KEYS = GENERATED.map((d) => `gen/${d.id}`);
const mixed = () => draftProject({ 'real.eval.yaml': REAL, 'gen.eval.yaml': generatedEvalFile() });
const read = (dir: string, name: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));

describe('planning: drafts are out of the plan unless --include-drafts', () => {
  it('skips them (listed apart), includes them with --include-drafts, and a skipped draft makes no run partial', async () => {
    const dir = mixed();
    const plain = await prepareCases([], {}, dir);
    expect(plain.cases.map((c) => c.key)).toEqual(['real/order', 'real/faq']);
    expect(plain.drafts.map((c) => c.key)).toEqual(DRAFT_KEYS);
    expect(plain.partial).toEqual([]);
    const all = await prepareCases([], { includeDrafts: true }, dir);
    expect(all.cases.map((c) => c.key).sort()).toEqual(['real/faq', 'real/order', ...DRAFT_KEYS].sort());
    expect(all.drafts).toEqual([]);
    expect(all.cases.filter((c) => c.draft).map((c) => c.key)).toEqual(DRAFT_KEYS);
    // A filter counts only the drafts it matches.
    expect((await prepareCases([], { filter: ['gen/returns-*', 'real'] }, dir)).drafts.map((c) => c.key)).toEqual(['gen/returns-1', 'gen/returns-2']);
  });

  it('a TypeScript eval file takes draft: true on a case the same way', async () => {
    const dir = draftProject({
      'evals.config.mjs': DRAFTS_CONFIG.replace("['**/*.eval.yaml']", "['**/*.eval.ts']"),
      't.eval.ts': `export default {
  suite: 't',
  target: 'agent',
  cases: [
    { id: 'kept', input: 'order?', assert: [{ type: 'calledTool', tool: 'lookup_order' }] },
    { id: 'drafted', draft: true, input: 'faq?', assert: [{ type: 'calledTool', tool: 'search_faq' }] },
  ],
};
`,
    });
    const plan = await prepareCases([], {}, dir);
    expect(plan.cases.map((c) => c.key)).toEqual(['t/kept']);
    expect(plan.drafts.map((c) => c.key)).toEqual(['t/drafted']);
    expect((await prepareCases([], { includeDrafts: true }, dir)).cases.map((c) => c.key)).toEqual(['t/kept', 't/drafted']);
  });

  it('a selection of drafts alone is bad input naming the file and the ways on; list shows them instead', async () => {
    const dir = mixed();
    const refused = await prepareCases([], { filter: ['gen'] }, dir).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as Error).message).toBe(
      'gen.eval.yaml: the selection holds only draft cases: 6 drafts (generated, not reviewed yet) and nothing else to run. Review them with `agent-evals review gen.eval.yaml`, or run them as they are with --include-drafts',
    );
    const listed = await prepareCases([], { filter: ['gen'], draftsAlone: true }, dir);
    expect(listed.cases).toEqual([]);
    expect(listed.drafts).toHaveLength(6);
  });

  it('a shard plan is the same with or without drafts in the suite, and accepting a draft keeps its fingerprint', async () => {
    const withDrafts = await prepareCases([], { shard: '1/2' }, mixed());
    const without = await prepareCases([], { shard: '1/2' }, draftProject({ 'real.eval.yaml': REAL }));
    expect(withDrafts.shard!.plan).toEqual(without.shard!.plan);
    expect(withDrafts.drafts).toHaveLength(6);

    const accepted = generatedEvalFile().replace(/^ {4}draft: true\n/m, '');
    const before = (await prepareCases([], { includeDrafts: true, filter: ['gen/order-status-1'] }, draftProject())).cases[0]!;
    const after = (await prepareCases([], { filter: ['gen/order-status-1'] }, draftProject({ 'gen.eval.yaml': accepted }))).cases[0]!;
    expect(before.draft).toBe(true);
    expect(after.draft).toBeUndefined();
    expect(caseFingerprint(after)).toBe(caseFingerprint(before));
  });
});

describe('the commands: run, list, merge', () => {
  it('run skips the drafts, says so with how to review them, counts them in the summary, and still saves a whole baseline', async () => {
    const dir = mixed();
    const r = await runCliInProcess(['run', '--json', 'r.json', '--save-baseline'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('agent-evals: 6 draft cases skipped (review them with `agent-evals review gen.eval.yaml`, or --include-drafts)');
    expect(r.stdout).toMatch(/Drafts +6 draft cases skipped/);
    const results = read(dir, 'r.json');
    expect(results.cases.map((c) => c.id)).toEqual(['order', 'faq']);
    expect(results.summary.draftsSkipped).toBe(6);
    expect(results.summary.cases.total).toBe(2);
    expect(existsSync(join(dir, '.out', 'baselines', 'main.json'))).toBe(true);

    const all = await runCliInProcess(['run', '--include-drafts', '--json', 'all.json'], { cwd: dir, timeoutMs: 60_000 });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect(read(dir, 'all.json').cases).toHaveLength(8);
    expect(read(dir, 'all.json').summary.draftsSkipped).toBeUndefined();
    expect(all.stderr).not.toContain('draft');
  }, 120_000);

  it('a run of drafts alone is exit 2 (nothing would run), with --filter too; --include-drafts runs them', async () => {
    const only = draftProject();
    const r = await runCliInProcess(['run', '--json', 'r.json'], { cwd: only, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('gen.eval.yaml: the suite holds only draft cases: 6 drafts');
    expect(existsSync(join(only, 'r.json'))).toBe(false);
    // Given on the command line, the file is named once (the error's prefix), not twice.
    const given = await runCliInProcess(['run', 'gen.eval.yaml'], { cwd: only, timeoutMs: 60_000 });
    expect(given.code, given.stdout + given.stderr).toBe(2);
    expect(given.stderr).toContain('agent-evals: gen.eval.yaml: the selection holds only draft cases: 6 drafts');
    const filtered = await runCliInProcess(['run', '--filter', 'gen/returns-*'], { cwd: mixed(), timeoutMs: 60_000 });
    expect(filtered.code, filtered.stdout + filtered.stderr).toBe(2);
    expect(filtered.stderr).toContain('the selection holds only draft cases: 2 drafts');
    const included = await runCliInProcess(['run', '--include-drafts', '--json', 'r.json'], { cwd: only, timeoutMs: 60_000 });
    expect(included.code, included.stdout + included.stderr).toBe(0);
    expect(read(only, 'r.json').cases.map((c) => `${c.suite}/${c.id}`)).toEqual(DRAFT_KEYS);
  }, 120_000);

  it('list marks the drafts (skipped, or run under --include-drafts), in text and JSON', async () => {
    const dir = mixed();
    const text = await runCliInProcess(['list'], { cwd: dir, timeoutMs: 60_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('2 cases, 2 trials\n');
    expect(text.stdout).toContain('gen/order-status-1  gen.eval.yaml:6  (draft, skipped)');
    expect(text.stdout).toContain('6 draft cases skipped (review them with `agent-evals review gen.eval.yaml`, or --include-drafts)');
    const included = await runCliInProcess(['list', '--include-drafts'], { cwd: dir, timeoutMs: 60_000 });
    expect(included.stdout).toContain('8 cases, 8 trials');
    expect(included.stdout).toMatch(/gen\/order-status-1 .* → agent {2}\(draft\)/);
    const json = await runCliInProcess(['list', '--json', '--filter', 'gen'], { cwd: dir, timeoutMs: 60_000 });
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{ key: string; draft?: boolean; skipped?: boolean }>;
    expect(rows.map((r) => [r.key, r.draft, r.skipped])).toEqual(DRAFT_KEYS.map((k) => [k, true, true]));
  }, 120_000);

  it('merge keeps the skipped drafts counted once (each shard counts the whole plan)', async () => {
    const dir = mixed();
    for (const k of [1, 2]) {
      const r = await runCliInProcess(['run', '--silent', '--shard', `${k}/2`, '--json', `s${k}.json`], { cwd: dir, timeoutMs: 60_000 });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(read(dir, `s${k}.json`).summary.draftsSkipped).toBe(6);
    }
    const m = await runCliInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], { cwd: dir, timeoutMs: 60_000 });
    expect(m.code, m.stdout + m.stderr).toBe(0);
    const merged = read(dir, 'merged.json');
    expect(merged.cases).toHaveLength(2);
    expect(merged.summary.draftsSkipped).toBe(6);
  }, 120_000);
});

describe('review of an eval file: bad input is exit 2 before anything is served', () => {
  it('a file with no drafts, a TypeScript eval file, --labels with an eval file', async () => {
    const dir = draftProject({ 'real.eval.yaml': REAL, 'x.eval.ts': 'export default {}\n' });
    const cases: [string[], string][] = [
      [['review', 'real.eval.yaml'], 'real.eval.yaml: no draft cases to review (none has `draft: true`)'],
      [['review', 'x.eval.ts'], "x.eval.ts: the drafts review rewrites YAML eval files; a TypeScript file's drafts are edited in its code"],
      [['review', 'real.eval.yaml', '--labels', 'l.jsonl'], '--labels: --labels names the labels file of a results review'],
      [['review', 'missing.eval.yaml'], 'missing.eval.yaml'],
    ];
    for (const [args, message] of cases) {
      const res = await runCliInProcess(args, { cwd: dir, timeoutMs: 60_000 });
      expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(message);
      expect(res.stdout).toBe('');
    }
  }, 120_000);
});

describe('review of an eval file: the server, without a browser', () => {
  it('refuses a request without the token, and an action that would leave the suite without a case (the file unchanged)', async () => {
    const one = 'suite: one\ntarget: agent\ncases:\n  - id: only\n    draft: true\n    input: order?\n    assert: [{ type: calledTool, tool: lookup_order }]\n';
    const dir = draftProject({ 'one.eval.yaml': one });
    const cli = startCliInProcess(['review', 'one.eval.yaml'], { cwd: dir });
    try {
      await cli.waitForStdout(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/$/m);
      const url = cli.stdout().trim();
      const post = (to: string, body: object) => fetch(to, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const untokened = await post(`${new URL(url).origin}/draft`, { action: 'reject', id: 'only' });
      expect(untokened.status).toBe(403);
      const last = await post(`${url}draft`, { action: 'reject', id: 'only' });
      expect(last.status).toBe(400);
      await expect(last.text()).resolves.toMatch(/^one\.eval\.yaml:\d+: cases: /);
      expect(readFileSync(join(dir, 'one.eval.yaml'), 'utf8')).toBe(one);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      await expect(page.text()).resolves.toContain('"id":"only"');
    } finally {
      cli.kill('SIGINT');
      const done = await cli.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('Review stopped: 0 accepted, 0 edited, 0 rejected; 1 draft left in one.eval.yaml');
    }
  }, 60_000);

  it('keeps a CRLF file CRLF through accept, edit and reject, its comments included', async () => {
    const crlf = generatedEvalFile().replace(/\n/g, '\r\n');
    const dir = draftProject({ 'gen.eval.yaml': crlf });
    const cli = startCliInProcess(['review', 'gen.eval.yaml'], { cwd: dir });
    try {
      await cli.waitForStdout(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/$/m);
      const url = cli.stdout().trim();
      const post = (body: object) => fetch(`${url}draft`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      for (const action of [
        { action: 'accept', id: 'returns-1' },
        { action: 'edit', id: 'shipping-1', input: 'Do you ship\nto Norway?', assert: '# by hand\n- { type: contains, value: Norway }\n' },
        { action: 'reject', id: 'returns-2' },
      ]) {
        const res = await post(action);
        expect(res.status, await res.clone().text()).toBe(200);
      }
      const text = readFileSync(join(dir, 'gen.eval.yaml'), 'utf8');
      expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      expect(text).toContain('# Drafted by agent-evals generate: review before these count.\r\n');
      expect(text).toContain('      # by hand\r\n');
      expect(text).not.toContain('returns-2');
    } finally {
      cli.kill('SIGINT');
      const done = await cli.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('Review stopped: 1 accepted, 1 edited, 1 rejected; 4 drafts left in gen.eval.yaml');
    }
  }, 60_000);
});
