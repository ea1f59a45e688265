/**
 * OpenTelemetry is loaded only for a target with `otel: true`: a child process records every module
 * specifier resolved while targets are built (a resolve hook), so what a plain run imports is seen.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  port.postMessage(specifier);
  return next(specifier, context);
}
`;

// After each phase a marker import is resolved: the hook thread's messages arrive in order, so once
// the marker is in, every specifier of that phase is too.
const main = (createTarget: string) => `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const seen = [];
let marked;
port1.on('message', (m) => (m === 'node:os' ? marked?.() : seen.push(m)));
register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const phase = async (name, work) => {
  await work();
  await new Promise((resolve) => { marked = resolve; import('node:os'); });
  const otel = seen.splice(0).filter((s) => s.includes('@opentelemetry'));
  console.log(name + ': ' + (otel.length ? otel.join(',') : 'none'));
};
const { createTarget } = await import(${JSON.stringify(createTarget)});
const settings = { rootDir: '.', configFile: null, env: {}, limiters: new Map() };
const fn = async () => 'hi';
await phase('plain', () => createTarget('plain', fn, settings));
await phase('options', () => createTarget('options', { function: fn }, settings));
await phase('otel', () => createTarget('otel', { function: fn, otel: true }, settings));
port1.close();
`;

it('a run without an otel target never loads OpenTelemetry; an otel target does', async () => {
  const dir = tempDir('agent-evals-otel-lazy-');
  writeFileSync(join(dir, 'hooks.mjs'), hooks);
  writeFileSync(join(dir, 'main.mjs'), main(pathToFileURL(join(REPO_ROOT, 'dist/targets/create-target.js')).href));
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'main.mjs')], { cwd: dir });
  const lines = stdout.trim().split('\n');
  expect(lines.slice(0, 2)).toEqual(['plain: none', 'options: none']);
  expect(lines[2]).toMatch(/^otel: .*@opentelemetry\/api/);
  expect(lines[2]).toMatch(/@opentelemetry\/sdk-trace-base/);
});
