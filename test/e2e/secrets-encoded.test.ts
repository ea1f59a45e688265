/**
 * A secret holding a quote, a backslash or a newline, echoed by a judge, is redacted in every form
 * it takes there: as the judge's JSON answer carries it (escaped), URL-encoded, and base64 (alone,
 * and inside a longer value where it starts mid-group, as in a Basic header). Seen in every file
 * the real CLI writes: results.json, the run folder's cases.jsonl, the judge cache on disk, JUnit
 * and the HTML report. The search here decodes what it finds rather than asking the redactor what
 * it matches, so a form the redactor forgot is found.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

afterAll(removeTempDirs);

const hex = (n: number) => randomBytes(n).toString('hex');
/** The judge's key, under a name only the config's `apiKeyEnv` makes a secret. */
const QUOTED = `tok"QUOTE\\BACKSLASH${hex(4)}`;
/** A command target's `env` value in the config, under a secret-named key. */
const TWO_LINES = `line-one-${hex(8)}\nline-two-${hex(8)}`;
const SECRETS = { QUOTED, TWO_LINES };

/** What a text holds of a secret, read in every way this test knows: in clear, escaped (JSON up to three times, HTML), percent-decoded, base64-decoded. */
function readings(text: string): string[] {
  let json = text;
  const out = [text];
  for (let i = 0; i < 3; i++) {
    // Undo one level of JSON escaping, as parsing the string it stands in would.
    json = json.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (JSON.parse(`"\\${e}"`) as string)));
    out.push(json);
  }
  out.push(
    out
      .map((t) =>
        t
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      )
      .join('\n'),
  );
  out.push(text.replace(/%[0-9A-Fa-f]{2}/g, (h) => String.fromCharCode(parseInt(h.slice(1), 16))));
  // Every run of base64 characters, decoded from each of the 4 places a group can start.
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let at = 0; at < 4; at++) out.push(Buffer.from(run.slice(at), 'base64').toString('latin1'));
  }
  return out;
}

/** The secrets a text holds in any reading: the whole value, or any 10-character piece of it (one of the two lines alone is a leak too). */
function leaks(text: string): string[] {
  const seen = readings(text);
  const found: string[] = [];
  for (const [name, value] of Object.entries(SECRETS)) {
    const latin1 = Buffer.from(value, 'utf8').toString('latin1');
    const pieces = [value, ...Array.from({ length: value.length - 9 }, (_, i) => value.slice(i, i + 10))];
    if (pieces.some((p) => seen.some((t) => t.includes(p) || (latin1 !== value && t.includes(latin1))))) found.push(name);
  }
  return found;
}

describe('a secret with a quote, a backslash or a newline, quoted by a judge in several encodings', () => {
  it('occurs in no encoding in results.json, cases.jsonl, the judge cache, JUnit or HTML', async () => {
    // Inside a longer value the secret starts 1 byte (`bob:`) and 2 bytes (`carol:xy`) into a 3-byte group.
    const basic = (user: string, s: string) => Buffer.from(`${user}${s}`).toString('base64');
    const quoting = (s: string) =>
      `raw ${s} | json ${JSON.stringify(s)} | url ${encodeURIComponent(s)} | b64 ${Buffer.from(s).toString('base64')} | b64url ${Buffer.from(s).toString('base64url')} | basic ${basic('bob:', s)} ${basic('carol:xy', s)} | end`;
    // The search finds each form on its own, so finding none below is the redactor's doing.
    for (const [name, value] of Object.entries(SECRETS)) {
      for (const form of quoting(value).split(' | ')) expect({ form, leaks: leaks(JSON.stringify(form)) }).toEqual({ form, leaks: form === 'end' ? [] : [name] });
    }
    // The reason is JSON inside the answer's JSON text: the raw answer carries each secret escaped.
    const judge = await startFakeOpenAI({ script: () => ({ json: { score: 0, reason: `${quoting(QUOTED)} / ${quoting(TWO_LINES)}`, evidence: [] } }) });
    try {
      const dir = tempDir();
      const out = join(dir, 'out');
      writeFileSync(
        join(dir, 'evals.config.mjs'),
        `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: ${JSON.stringify(out)},
  targets: {
    fn: async () => ({ reply: 'the order ships on Friday' }),
    cmd: { command: ['node', '-e', 'process.stdout.write("{}")'], env: { SIGNING_SECRET: ${JSON.stringify(TWO_LINES)} } },
  },
  judges: { j: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: ${JSON.stringify(judge.url)}, apiKeyEnv: 'JUDGE_CRED' } },
  judge: 'j',
};
`,
      );
      mkdirSync(join(dir, 'evals'));
      writeFileSync(join(dir, 'evals', 'fn.eval.yaml'), 'suite: fn\ntarget: fn\ncases:\n  - { id: judged, input: hi, assert: [{ type: judge, criteria: "names the day" }] }\n');
      const files = { junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
      const res = await runCliInProcess(['run', '--strict', '--reporter', 'json', '--reporter', `junit=${files.junit}`, '--reporter', `html=${files.html}`], { cwd: dir, env: { JUDGE_CRED: QUOTED } });
      expect(res.code, res.stderr).toBe(1);

      // Strict: the judge's low score fails the case, so JUnit carries its reason too.
      // The judge was asked with the key and answered: its reason and raw answer carry markers instead.
      expect(judge.requests.length).toBeGreaterThan(0);
      expect(judge.requests[0]!.headers['authorization']).toBe(`Bearer ${QUOTED}`);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      const assertion = results.cases[0].trials[0].assertions[0];
      expect(assertion.raw).toContain('raw [redacted] | json \\"[redacted]\\" | url [redacted] | b64 [redacted] | b64url [redacted] | basic ');
      // Inside a longer base64 value, what stands for the secret's bits alone is replaced; the edges keep a few bits of its first and last byte.
      expect(assertion.raw.match(/basic [A-Za-z0-9+/]*\[redacted\][A-Za-z0-9+/]*=* [A-Za-z0-9+/]*\[redacted\][A-Za-z0-9+/]*=* \| end/g)).toHaveLength(2);

      const inOut = readdirSync(out, { recursive: true, encoding: 'utf8' }).map((f) => join(out, f));
      const written = [...inOut.filter((f) => statSync(f).isFile()), ...Object.values(files)];
      expect(written.filter((f) => f.endsWith('cases.jsonl'))).toHaveLength(1);
      expect(written.filter((f) => f.includes(join('cache', 'judge'))).length, written.join('\n')).toBeGreaterThan(0);
      for (const file of written) expect({ file, leaks: leaks(readFileSync(file, 'utf8')) }).toEqual({ file, leaks: [] });
      expect(leaks(res.stdout + res.stderr)).toEqual([]);
    } finally {
      await judge.close();
    }
  });
});
