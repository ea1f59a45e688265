/**
 * Secrets are redacted by value at every output: fake provider keys that a command target prints
 * to stderr, a function target replies with (as its reply, a tool result and an error) and an HTTP
 * service echoes in its error bodies (a key placed across the 512-byte preview boundary included)
 * occur in no file the run writes, nor in its stdout/stderr. So do the bare credential of a
 * configured `Authorization: Bearer …` header and tokens known only by their shape (GitLab, Google,
 * a JWT, a URL's password) from the environment, the config and the command line. One run spawns
 * the built CLI, so that what its process writes to the terminal is checked; the others run its
 * `main` in-process.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

/** Long, random and shaped like no known token, so only redaction by value can catch them. */
const key = (prefix: string) => `${prefix}${randomBytes(20).toString('hex')}`;
const OPENAI = key('oa');
const ANTHROPIC = key('an');
/** A header value known only from the config, under an `apiKeyEnv`-free name. */
const SERVICE_TOKEN = key('svc');
/** The value of a variable named only as a judge's `apiKeyEnv` (its name matches no secret pattern). */
const CUSTOM = key('cu');
const SECRETS = { OPENAI, ANTHROPIC, SERVICE_TOKEN, CUSTOM };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(removeTempDirs);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Where a text holds part of a secret: the whole value, or any 12-character piece of it. */
function leaks(text: string, secrets: Record<string, string> = SECRETS): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(secrets)) {
    for (let i = 0; i + 12 <= value.length; i += 4) {
      if (text.includes(value.slice(i, i + 12))) {
        found.push(name);
        break;
      }
    }
  }
  return found;
}

describe('secrets by value', () => {
  it('reach no output: results, streamed cases, JUnit, GitHub summary and annotations, terminal', async () => {
    // The service echoes the request's headers in its error body, after padding that puts the
    // echoed key across the 512-byte preview boundary (`pad` bytes before it).
    server = await startFakeServer((req) => {
      if (req.path === '/health') return { status: 200, body: '{}' };
      const pad = Number(req.headers['x-pad'] ?? 0);
      const echoed = `${'.'.repeat(pad)}${req.headers['x-api-key']} ${req.headers['authorization']}`;
      return { status: 500, body: `${echoed} ${JSON.stringify(req.headers)}` };
    });
    const dir = tempDir();
    const out = join(dir, 'out');
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: ${JSON.stringify(out)},
  targets: {
    // Given the keys explicitly: this works whether or not command targets inherit the environment.
    cmd: { command: ['node', '-e', 'process.stderr.write("leaked " + process.env.LEAK + " and " + process.env.LEAK2 + "\\\\n"); process.exit(1)'], env: { LEAK: process.env.OPENAI_API_KEY, LEAK2: process.env.ANTHROPIC_API_KEY } },
    // The key ends 1,980 characters before the stderr tail is cut: a cut before redaction would keep its end.
    cmd2: { command: ['node', '-e', 'process.stderr.write(process.env.LEAK + "x".repeat(1980)); process.exit(1)'], env: { LEAK: process.env.OPENAI_API_KEY } },
    fn: async (input, ctx) => {
      if (input === 'throw') throw new Error('boom with ' + process.env.ANTHROPIC_API_KEY);
      const tool = await ctx.tool('env', {}, () => ({ openai: process.env.OPENAI_API_KEY, custom: process.env.CUSTOM_CRED }));
      return { reply: 'keys: ' + tool.openai + ' ' + process.env.ANTHROPIC_API_KEY + ' ' + tool.custom, instructions: 'mine ' + process.env.OPENAI_API_KEY };
    },
    // The key starts 16 bytes before the preview ends: a cut before redaction would let most of it out.
    svc: { url: ${JSON.stringify(server.origin)}, headers: { 'x-api-key': process.env.OPENAI_API_KEY, authorization: 'Token ${SERVICE_TOKEN}', 'x-pad': '496' } },
    svc2: { url: ${JSON.stringify(server.origin)}, headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, authorization: 'Token ${SERVICE_TOKEN}', 'x-pad': '400' } },
  },
  judges: { custom: { provider: 'openai', model: 'gpt-4.1-mini', apiKeyEnv: 'CUSTOM_CRED' } },
};
`,
    );
    mkdirSync(join(dir, 'evals'));
    const suite = (target: string, cases: string[]) => writeFileSync(join(dir, 'evals', `${target}.eval.yaml`), [`suite: ${target}`, `target: ${target}`, 'cases:', ...cases, ''].join('\n'));
    suite('cmd', ['  - { id: cmd, input: hi, assert: [{ type: contains, value: never }] }']);
    suite('cmd2', ['  - { id: cmd2, input: hi, assert: [{ type: contains, value: never }] }']);
    suite('fn', [
      '  - { id: fn-reply, input: hi, assert: [{ type: contains, value: never }, { type: equals, value: never }] }',
      '  - { id: fn-throw, input: throw, assert: [{ type: contains, value: never }] }',
    ]);
    suite('svc', ['  - { id: http, input: hi, assert: [{ type: contains, value: never }] }']);
    suite('svc2', ['  - { id: http2, input: hi, assert: [{ type: contains, value: never }] }']);
    const junit = join(dir, 'junit.xml');
    const summary = join(dir, 'summary.md');
    const res = await runCliInProcess(['run', '--verbose', '--reporter', 'terminal', '--reporter', 'json', '--reporter', `junit=${junit}`, '--reporter', 'github'], {
      cwd: dir,
      env: { OPENAI_API_KEY: OPENAI, ANTHROPIC_API_KEY: ANTHROPIC, CUSTOM_CRED: CUSTOM, GITHUB_STEP_SUMMARY: summary },
    });
    expect(res.code, res.stderr).toBe(1);

    // The run did see the secrets (so their absence below is redaction, not a run that never got them).
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const byId = Object.fromEntries(results.cases.map((c: { id: string }) => [c.id, c]));
    expect(byId.cmd.trials[0].error).toMatch(/leaked \[redacted\] and \[redacted\]/);
    expect(byId['fn-reply'].trials[0].reply).toBe('keys: [redacted] [redacted] [redacted]');
    expect(byId['fn-throw'].trials[0].error).toMatch(/boom with \[redacted\]/);
    // Redacted whole, then cut: the marker stands where the key started, 496 bytes into the body.
    expect(byId.http.trials[0].error).toMatch(/answered 500: \.{496}\[redacted\]/);
    expect(byId.http2.trials[0].error).toMatch(/\[redacted\] \[redacted\] \{/);

    const written = [...filesUnder(out), junit, summary];
    expect(written.some((f) => f.endsWith('cases.jsonl'))).toBe(true);
    for (const file of written) expect({ file, leaks: leaks(readFileSync(file, 'utf8')) }).toEqual({ file, leaks: [] });
    expect(res.stdout).toMatch(/::error file=/);
    expect(leaks(res.stdout)).toEqual([]);
    expect(leaks(res.stderr)).toEqual([]);
  });
});

describe('credentials after an auth scheme and tokens known by their shape', () => {
  // Random, so only redaction can explain their absence; the bearer tokens have no known shape.
  const hex = (n: number) => randomBytes(n).toString('hex');
  const SHAPED = {
    /** Configured only as `authorization: Bearer <token>` of an HTTP target / the judge. */
    TARGET_BEARER: `tb${hex(16)}`,
    JUDGE_BEARER: `jb${hex(16)}`,
    /** In variables whose names say nothing (`GL_ACCESS`, `MAPS`, `SESSION`, `DATABASE_URL`). */
    GITLAB: `glpat-${hex(10)}`,
    GOOGLE: `AIza${hex(17)}x`,
    JWT: `eyJhbGciOiJIUzI1NiJ9.eyJ${hex(12)}.${hex(16)}`,
    DB_PASSWORD: `pw${hex(10)}`,
    /** Only in the config, in a command target's URL. */
    CONFIG_PASSWORD: `cp${hex(10)}`,
    /** Only on the command line. */
    ARGV_GITLAB: `glpat-${hex(10)}`,
    ARGV_GOOGLE: `AIza${hex(17)}y`,
    ARGV_JWT: `eyJhbGciOiJub25lIn0.eyJ${hex(12)}.${hex(16)}`,
    ARGV_PASSWORD: `ap${hex(10)}`,
    ARGV_SHORT: `sf${hex(12)}`,
  };
  const S = SHAPED;

  it('reach no artifact (results, run folder, JUnit, HTML, GitHub summary, judge cache) and not the terminal', async () => {
    const judge = await startFakeOpenAI({
      // The judge quotes every secret the run holds in its reason, as a model that read them somewhere might.
      script: () => ({ json: { score: 1, reason: `saw ${[S.TARGET_BEARER, S.JUDGE_BEARER, S.GITLAB, S.GOOGLE, S.JWT, S.DB_PASSWORD, S.CONFIG_PASSWORD].join(' ')}`, evidence: [] } }),
    });
    try {
      const dir = tempDir();
      const out = join(dir, 'out');
      const art = join(dir, 'artifacts');
      writeFileSync(
        join(dir, 'evals.config.mjs'),
        `const TOKEN = ${JSON.stringify(S.TARGET_BEARER)};
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: ${JSON.stringify(out)},
  targets: {
    // The header is what makes TOKEN a secret: the function target then echoes it bare.
    svc: { url: 'http://127.0.0.1:9', headers: { authorization: 'Bearer ' + TOKEN } },
    fn: async (input, ctx) => {
      const tool = await ctx.tool('lookup', {}, () => ({ token: TOKEN, gl: process.env.GL_ACCESS }));
      const e = process.env;
      return { reply: ['reply', TOKEN, tool.gl, e.MAPS, e.SESSION, e.DATABASE_URL].join(' ') };
    },
    cmd: { command: ['node', '-e', 'process.stdout.write(JSON.stringify({ reply: "upstream " + process.env.UPSTREAM }))'], env: { UPSTREAM: 'https://svc:${S.CONFIG_PASSWORD}@upstream.internal/x' } },
  },
  judges: { j: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: ${JSON.stringify(judge.url)}, headers: { authorization: 'Bearer ${S.JUDGE_BEARER}' } } },
  judge: 'j',
};
`,
      );
      mkdirSync(join(dir, 'evals'));
      // One case judged (its tool data in clear for the judge), one whose failed `equals` quotes the reply cut short.
      const judged = '[{ type: contains, value: reply }, { type: judge, criteria: "says something", trace: full }]';
      const cases = [`  - { id: echo, input: hi, assert: ${judged} }`, '  - { id: cut, input: hi, assert: [{ type: equals, value: never }] }'];
      writeFileSync(join(dir, 'evals', 'fn.eval.yaml'), ['suite: fn', 'target: fn', 'cases:', ...cases, ''].join('\n'));
      writeFileSync(join(dir, 'evals', 'cmd.eval.yaml'), `suite: cmd\ntarget: cmd\ncases:\n  - { id: echo, input: hi, assert: [{ type: equals, value: never }] }\n`);
      const files = { junit: join(art, 'junit.xml'), html: join(art, 'report.html'), summary: join(art, 'summary.md') };
      const argvSecrets = ['--exclude-tag', S.ARGV_GITLAB, '--exclude-tag', S.ARGV_GOOGLE, '--exclude-tag', `x.${S.ARGV_JWT}`, '--exclude-tag', `https://me:${S.ARGV_PASSWORD}@host/x`];
      const env = {
        OPENAI_API_KEY: 'sk-test-dummy-key-000000',
        GL_ACCESS: S.GITLAB,
        MAPS: S.GOOGLE,
        SESSION: S.JWT,
        DATABASE_URL: `postgres://app:${S.DB_PASSWORD}@db:5432/main`,
        GITHUB_STEP_SUMMARY: files.summary,
      };
      mkdirSync(art);
      const reporters = ['--reporter', 'terminal', '--reporter', 'json', '--reporter', `junit=${files.junit}`, '--reporter', `html=${files.html}`, '--reporter', 'github'];
      // Spawned: what reaches the real process's stdout and stderr is the subject ("not the terminal").
      const res = await runCli(['run', '--verbose', '--filter', 'fn/*', '--filter', 'cmd/*', ...reporters, ...argvSecrets], { cwd: dir, env });
      expect(res.code, res.stderr).toBe(1);

      // The run did see them: the reply, the tool result and the judge's reason carry markers instead.
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      const byKey = Object.fromEntries(results.cases.map((c: { suite: string; id: string }) => [`${c.suite}/${c.id}`, c]));
      const trial = byKey['fn/echo'].trials[0];
      expect(trial.reply).toBe('reply [redacted] [redacted] [redacted] [redacted] postgres://app:[redacted]@db:5432/main');
      expect(JSON.stringify(trial)).toContain('saw [redacted] [redacted] [redacted] [redacted] [redacted] [redacted] [redacted]');
      expect(JSON.stringify(byKey['fn/cut'].trials[0].assertions)).toContain('reply is \\"reply [redacted] [redacted]…');
      expect(byKey['cmd/echo'].trials[0].reply).toBe('upstream https://svc:[redacted]@upstream.internal/x');
      expect(results.run.argv).toContain('[redacted]');
      expect(judge.requests.length).toBeGreaterThan(0);

      const written = [...filesUnder(out), ...Object.values(files)];
      expect(written.filter((f) => /cache/.test(f)).length, written.join('\n')).toBeGreaterThan(0);
      for (const file of written) expect({ file, leaks: leaks(readFileSync(file, 'utf8'), SHAPED) }).toEqual({ file, leaks: [] });
      // Nor did the judge get them: what it reads is redacted before it is sent.
      expect(leaks(judge.requests.map((r) => r.body).join('\n'), { TARGET_BEARER: S.TARGET_BEARER, GITLAB: S.GITLAB })).toEqual([]);
      expect(leaks(res.stdout + res.stderr, SHAPED)).toEqual([]);

      // A credential typed after a short flag of another tool, or where a path goes: refused, never echoed.
      for (const args of [
        ['run', '-k', S.ARGV_SHORT],
        ['run', `-k${S.ARGV_SHORT}`],
        ['run', `evals/${S.ARGV_GITLAB}.eval.yaml`],
        ['run', '--repeat', S.ARGV_JWT],
      ]) {
        const bad = await runCliInProcess(args, { cwd: dir, env });
        expect(bad.code, args.join(' ')).toBe(2);
        expect({ args, leaks: leaks(bad.stdout + bad.stderr, SHAPED) }).toEqual({ args, leaks: [] });
      }
    } finally {
      await judge.close();
    }
  });
});
