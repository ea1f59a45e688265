import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { AgentRunSchema, type AgentRun } from '../trace/agent-run.js';
import type { Target } from './types.js';

export interface CommandTargetOptions {
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
}

const STDERR_TAIL = 2_000;
const MAX_STDOUT = 32 * 1024 * 1024;

/**
 * Any-language target: one process per trial, the trial as JSON on stdin, an AgentRun as JSON on
 * stdout. A non-zero exit or unreadable output is a trial error that carries the stderr tail.
 */
export function commandTarget(name: string, opts: CommandTargetOptions, rootDir: string): Target {
  const [cmd, ...args] = opts.command as [string, ...string[]];
  return {
    name,
    run: (trial, signal) =>
      new Promise<AgentRun>((resolvePromise, reject) => {
        const child = spawn(cmd, args, {
          cwd: resolve(rootDir, opts.cwd ?? '.'),
          env: { ...process.env, ...opts.env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        const out: Buffer[] = [];
        let outBytes = 0;
        let errTail = '';
        const kill = () => child.kill('SIGKILL');
        signal.addEventListener('abort', kill, { once: true });
        child.stdout.on('data', (b: Buffer) => {
          outBytes += b.length;
          if (outBytes <= MAX_STDOUT) out.push(b);
        });
        child.stderr.on('data', (b: Buffer) => {
          errTail = (errTail + b.toString('utf8')).slice(-STDERR_TAIL);
        });
        child.on('error', (err) => {
          signal.removeEventListener('abort', kill);
          reject(new Error(`command target "${name}" could not start ${cmd}: ${err.message}`));
        });
        // A child that exits before reading stdin must not crash us with EPIPE.
        child.stdin.on('error', () => {});
        child.stdin.end(JSON.stringify(trial));
        child.on('close', (code, sig) => {
          signal.removeEventListener('abort', kill);
          const tail = errTail.trim() ? `\nstderr: ${errTail.trim()}` : '';
          if (code !== 0) return reject(new Error(`command target "${name}" exited with ${sig ?? `code ${code}`}${tail}`));
          try {
            resolvePromise(parseRun(Buffer.concat(out).toString('utf8')));
          } catch (err) {
            reject(new Error(`command target "${name}" printed no valid AgentRun JSON: ${(err as Error).message}${tail}`));
          }
        });
      }),
  };
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
      throw new Error(stdout.trim() ? `not JSON: ${JSON.stringify(stdout.trim().slice(0, 200))}` : 'empty output');
    }
  }
  const parsed = AgentRunSchema.safeParse(value);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return parsed.data;
}
