/**
 * Secrets are redacted by value at every output: fake provider keys that a command target prints
 * to stderr, a function target replies with (as its reply, a tool result and an error) and an HTTP
 * service echoes in its error bodies (a key placed across the 512-byte preview boundary included)
 * occur in no file the run writes, nor in its stdout/stderr.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';

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
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(SECRETS)) {
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
    const res = await runCli(['run', '--verbose', '--reporter', 'terminal', '--reporter', 'json', '--reporter', `junit=${junit}`, '--reporter', 'github'], {
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
