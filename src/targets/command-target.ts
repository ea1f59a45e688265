import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { AgentRunSchema, type AgentRun } from '../core/agent-run.js';
import { UserError } from '../core/errors.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { Target } from './types.js';
import { commandEnv } from './command-env.js';
import { killGroup, spawnGroup } from './process-group.js';
import type { z } from 'zod';
import type { CommandTargetSchema } from './target-schemas.js';
import { whereIn, type TargetSettings } from './target-settings.js';
import { withTargetTimeout } from './target-timeout.js';

export interface CommandTargetOptions {
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  inheritEnv?: string[];
  maxOutputBytes?: number;
}

const STDERR_TAIL = 2_000;
/** Default bound of a command target's stdout (`maxOutputBytes`). */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** How long output still in the pipes is read after the target's own process exited. */
const DRAIN_MS = 100;

/**
 * Any-language target: one process per trial, the trial as JSON on stdin, an AgentRun as JSON on
 * stdout. A non-zero exit or unreadable output is a trial error that carries the stderr tail.
 * The target is done when its own process exits: what it left running (a background helper that
 * still holds the pipes) is killed with its process group, and so is everything on timeout.
 */
export function commandTarget(name: string, opts: CommandTargetOptions, rootDir: string, redactor?: SecretRedactor, env: NodeJS.ProcessEnv = process.env): Target {
  const [cmd, ...args] = opts.command as [string, ...string[]];
  const maxBytes = opts.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  return {
    name,
    run: (trial, signal) =>
      new Promise<AgentRun>((resolvePromise, reject) => {
        if (signal.aborted) return reject(abortError(signal));
        const child = spawnGroup(cmd, args, { cwd: resolve(rootDir, opts.cwd ?? '.'), env: commandEnv(opts, env) });
        const out: Buffer[] = [];
        let outBytes = 0;
        let errTail = '';
        let settled = false;
        const finish = (settle: () => void) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', onAbort);
          killGroup(child);
          // What the group still writes is not ours to read (and must not hold the event loop).
          child.stdout.destroy();
          child.stderr.destroy();
          settle();
        };
        const onAbort = () => finish(() => reject(abortError(signal)));
        signal.addEventListener('abort', onAbort, { once: true });
        child.stdout.on('data', (b: Buffer) => {
          outBytes += b.length;
          if (outBytes <= maxBytes) return void out.push(b);
          finish(() => reject(new Error(`command target "${name}" wrote more than ${maxBytes} bytes to stdout (the limit set by its maxOutputBytes); the target was stopped`)));
        });
        child.stderr.on('data', (b: Buffer) => {
          // Kept twice as long as shown: a secret is redacted whole before the tail is cut (see below).
          errTail = (errTail + b.toString('utf8')).slice(-2 * STDERR_TAIL);
        });
        child.on('error', (err) => finish(() => reject(new Error(`command target "${name}" could not start ${cmd}: ${err.message}`))));
        // A child that exits before reading stdin must not crash us with EPIPE.
        child.stdin.on('error', () => {});
        child.stdin.end(JSON.stringify(trial));
        child.on('exit', (code, sig) => {
          // Not 'close': a helper the target left behind may hold the pipes open for good. It is
          // killed now; what the target itself wrote is read until the pipes end, briefly.
          killGroup(child);
          void drained(child.stdout, child.stderr).then(() =>
            finish(() => {
              const shown = (redactor ? redactor.redact(errTail) : errTail).slice(-STDERR_TAIL).trim();
              const tail = shown ? `\nstderr: ${shown}` : '';
              if (code !== 0) return reject(new Error(`command target "${name}" exited with ${sig ?? `code ${code}`}${tail}`));
              try {
                resolvePromise(parseRun(Buffer.concat(out).toString('utf8')));
              } catch (err) {
                reject(new Error(`command target "${name}" printed no valid AgentRun JSON: ${(err as Error).message}${tail}`));
              }
            }),
          );
        });
      }),
  };
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** Resolves once both streams ended, or after DRAIN_MS, whichever comes first. */
function drained(...streams: Readable[]): Promise<void> {
  const ends = streams.map((s) => new Promise<void>((done) => (s.readableEnded ? done() : s.once('end', () => done()))));
  return new Promise((done) => {
    const timer = setTimeout(done, DRAIN_MS);
    void Promise.all(ends).then(() => {
      clearTimeout(timer);
      done();
    });
  });
}

/** The whole stdout as JSON, else its last non-empty line (agents may log before the result). */
function parseRun(stdout: string): AgentRun {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    const last = stdout.trimEnd().split('\n').pop() ?? '';
    try {
      value = JSON.parse(last);
    } catch {
      // Neither reading: say both, since logs before a pretty-printed JSON defeat each of them.
      const shape = 'expected the AgentRun JSON as the whole stdout or as its last line (after any log lines, on one line)';
      throw new Error(stdout.trim() ? `not JSON: ${JSON.stringify(stdout.trim().slice(0, 200))}; ${shape}` : `empty output; ${shape}`);
    }
  }
  const parsed = AgentRunSchema.safeParse(value);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return parsed.data;
}

/** A command target from its config value, bounded by its `timeoutMs`. */
export function buildCommandTarget(name: string, spec: z.infer<typeof CommandTargetSchema>, settings: TargetSettings): Target {
  if (spec.cwd !== undefined) checkCwd(name, spec.cwd, settings);
  return withTargetTimeout(commandTarget(name, spec, settings.rootDir, settings.redactor, settings.env), spec.timeoutMs);
}

/**
 * A `cwd` that is not a folder is a config error now: spawn would fail every trial with
 * `spawn node ENOENT`, naming the program rather than the folder.
 */
function checkCwd(name: string, cwd: string, settings: Pick<TargetSettings, 'configFile' | 'rootDir'>): void {
  const dir = resolve(settings.rootDir, cwd);
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    throw new UserError(`${stat ? 'is not a folder' : 'no such folder'}: ${cwd} (resolved to ${dir})`, whereIn(settings, name)('.cwd'));
  }
}
