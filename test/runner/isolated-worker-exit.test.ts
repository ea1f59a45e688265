/**
 * The isolated worker tells the host when the target calls process.exit, so the trial names the call.
 * Node itself calls process.exit() in a worker after an uncaught error: that exit must not be told as
 * the target's, or it can reach the host before the 'error' event and name the wrong cause (seen under
 * load in test/e2e/cli-isolate.test.ts). Runs the built worker (dist/runner/isolation/isolated-worker.js).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import type { FromWorker, WorkerInit } from '../../src/runner/isolation/isolate-protocol.js';

afterAll(removeTempDirs);

const WORKER = new URL('../../dist/runner/isolation/isolated-worker.js', import.meta.url);

/** Starts the worker on target `t` of a config whose function is `fn`, calls it once, and collects every message until it exits. */
async function messagesOf(fn: string): Promise<{ messages: FromWorker[]; errors: string[]; code: number }> {
  const dir = tempDir('agent-evals-isolated-exit-');
  const file = join(dir, 'evals.config.mjs');
  writeFileSync(file, `const t = ${fn};\nexport default { targets: { t: { isolate: true, function: t } } };\n`);
  const init: WorkerInit = { place: { kind: 'config', file, display: 'evals.config.mjs', name: 't', source: fn }, dryRun: false, loadTimeoutMs: 30_000 };
  const worker = new Worker(WORKER, { workerData: init });
  const messages: FromWorker[] = [];
  const errors: string[] = [];
  worker.on('message', (m: FromWorker) => {
    messages.push(m);
    if (m.type === 'ready') worker.postMessage({ type: 'call', id: 1, trial: { suite: 's', id: 'c', trial: 1, input: 'x', messages: [] }, turn: 0, session: 1 });
  });
  worker.on('error', (err) => errors.push(err.message));
  const code = await new Promise<number>((resolve) => worker.on('exit', resolve));
  return { messages, errors, code };
}

describe('isolated worker exits', () => {
  it("an uncaught throw from a timer ends the worker as an 'error', with no process.exit told as the target's", async () => {
    const r = await messagesOf("async () => { setTimeout(() => { throw new Error('boom from a timer'); }, 0); await new Promise(() => {}); }");
    expect(r.errors).toEqual(['boom from a timer']);
    expect(r.messages.filter((m) => m.type === 'exit-called')).toEqual([]);
    expect(r.messages.some((m) => m.type === 'ready')).toBe(true);
  });

  it("the target's own process.exit(3) is told, naming the call", async () => {
    const r = await messagesOf('async () => { process.exit(3); }');
    expect(r.messages.filter((m) => m.type === 'exit-called')).toEqual([{ type: 'exit-called', call: 'process.exit(3)' }]);
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(3);
  });
});
