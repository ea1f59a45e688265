/** Helpers for tests of the HTML report. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlReporter } from '../../src/report/html.js';
import { runInProcess, type InProcessRun } from './run-in-process.js';

/** An agent reply and a tool result that would run script if a report rendered them as markup. */
export const HOSTILE_REPLY = '<img src=x onerror=alert(1)>';
export const HOSTILE_RESULT = '</script><script>alert(2)</script>';
/** A case input that would close the data block and run script if the page put it in as markup. */
export const HOSTILE_INPUT = '<i>go</i></script><script>alert(3)</script>';

const HOSTILE_EVALS = `suite: hostile
target: agent
cases:
  - { id: evil, input: ${JSON.stringify(HOSTILE_INPUT)}, reference: "<b>a safe answer</b>", assert: [{ type: contains, value: nothing-like-this }] }
  - { id: fine, input: ok, assert: [{ type: contains, value: ok }] }
`;

/**
 * Runs a two-case suite whose first case's agent replies with HOSTILE_REPLY after a `lookup` tool call
 * that returned HOSTILE_RESULT, with the html reporter on; returns the run and the page it wrote.
 */
export async function runHostile(): Promise<{ run: InProcessRun; html: string; path: string }> {
  let path = '';
  const run = await runInProcess({
    files: { 'hostile.eval.yaml': HOSTILE_EVALS },
    config: {
      trace: 'full',
      targets: {
        agent: (input: string) =>
          input === HOSTILE_INPUT ? { reply: HOSTILE_REPLY, steps: [{ text: 'looking', toolCalls: [{ name: 'lookup', args: { q: '<b>' }, result: HOSTILE_RESULT }] }] } : 'ok',
      },
    },
    reporters: (dir) => {
      path = join(dir, 'out', 'report.html');
      return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
    },
  });
  return { run, html: readFileSync(path, 'utf8'), path };
}

/** The page split at its two script blocks. */
export function pageParts(html: string): { data: string; script: string; outside: string } {
  const open = '<script type="application/json" id="results">';
  const a = html.indexOf(open);
  const b = html.indexOf('</script>', a);
  const c = html.indexOf('<script>', b);
  const d = html.indexOf('</script>', c);
  return {
    data: html.slice(a + open.length, b),
    script: html.slice(c + '<script>'.length, d),
    outside: html.slice(0, a) + html.slice(b, c) + html.slice(d),
  };
}

const ASKED_EVALS = `suite: asked
target: agent
cases:
  - id: history
    messages:
      - { role: user, content: first question }
      - { role: assistant, content: first answer }
      - { role: user, content: second question }
    assert: [{ type: contains, value: ok }]
  - id: multi
    turns:
      - { input: turn one }
      - { input: turn two }
    assert: [{ type: contains, value: ok }]
`;

/** Runs a history case and a two-turn case with the html reporter on; returns the page's path. */
export async function runAskedPage(): Promise<{ run: InProcessRun; path: string }> {
  let path = '';
  const run = await runInProcess({
    files: { 'asked.eval.yaml': ASKED_EVALS },
    config: { targets: { agent: (input: string) => `ok: ${input}` } },
    reporters: (dir) => {
      path = join(dir, 'out', 'asked.html');
      return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
    },
  });
  return { run, path };
}
