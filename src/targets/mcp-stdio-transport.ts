import { createWriteStream, type WriteStream } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../core/errors.js';
import { killGroup, spawnGroup } from './process-group.js';

type StdioModule = typeof import('@modelcontextprotocol/sdk/shared/stdio.js');

/**
 * An MCP stdio transport whose server leads its own process group (the SDK's own transport spawns a
 * plain child): closing it kills everything the server started, and the CLI's exit hook kills what
 * is left on Ctrl-C. Its stderr goes to a file, never to the runner's terminal; with no file, its last
 * lines are kept to say why the server died.
 */
export interface GroupStdioOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Appended to; the server's own log. */
  stderrFile?: string | undefined;
  /** Masks secrets (the environment's, the server's configured `env`) in the stderr lines an error quotes. */
  redact(text: string): string;
  /** Largest message (one line of stdout) read; past it `onfault` is told and the server stopped. */
  maxMessageBytes: number;
  /** A failure that ends the connection: the process exited, failed to start, or wrote too much. */
  onfault(error: Error): void;
}

/** How much of a server's stderr is kept when it has no log file. */
const TAIL_CHARS = 4096;

/** The last lines a server wrote to stderr, for the error that says it exited; none: nothing. */
function stderrEnd(tail: string): string {
  const lines = tail
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
  return lines.length ? `; its stderr ended: ${lines.join(' | ')}` : '';
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private stderr: WriteStream | undefined;
  private stderrTail = '';
  private exitError: Error | undefined;
  private closed = false;

  constructor(
    private readonly stdio: StdioModule,
    private readonly opts: GroupStdioOptions,
  ) {}

  /** The server's pid (its process group's id), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    const { opts } = this;
    const buffer = new this.stdio.ReadBuffer({ maxBufferSize: opts.maxMessageBytes });
    const child = spawnGroup(opts.command, opts.args, { cwd: opts.cwd, env: opts.env });
    this.child = child;
    if (opts.stderrFile) {
      this.stderr = createWriteStream(opts.stderrFile, { flags: 'a' });
      // A log that cannot be written must not end the run.
      this.stderr.on('error', () => {});
      child.stderr.pipe(this.stderr);
    } else child.stderr.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-TAIL_CHARS)));
    child.stdin.on('error', () => {}); // EPIPE after the server exited: 'exit' reports it
    child.stdout.on('data', (chunk: Buffer) => {
      try {
        buffer.append(chunk);
      } catch {
        return this.fault(new Error(`the server wrote a message larger than ${opts.maxMessageBytes} bytes (its maxResultBytes); it was stopped`));
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = buffer.readMessage();
        } catch (err) {
          this.onerror?.(new Error(`unreadable message from the server: ${errorMessage(err)}`));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    // Why a server died is in its stderr: the error says where to look, or (no log file: listing tools,
    // mcp-check) quotes its last lines. Linux reads a pipe's ready data before it reports the exit.
    child.on('exit', (code, signal) => {
      const why = opts.stderrFile ? `; its stderr is in ${opts.stderrFile}` : stderrEnd(opts.redact(this.stderrTail));
      this.exitError = new Error(`the server process exited (${signal ?? `code ${code}`})${why}`);
      this.fault(this.exitError);
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        reject(new Error(`could not start ${opts.command}: ${err.message}`));
        this.fault(new Error(`could not start ${opts.command}: ${err.message}`));
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve, reject) => {
      child.stdin.write(this.stdio.serializeMessage(message), (err) => {
        if (!err) return resolve();
        // A busy machine may write to a server that has already died (EPIPE) before its exit is
        // reported: why it died (its exit, its stderr) is the better error, when it comes soon.
        if ((err as NodeJS.ErrnoException).code !== 'EPIPE' || this.exitError) return reject(this.exitError ?? err);
        const timer = setTimeout(() => reject(err), 1000).unref();
        child.once('exit', () => setImmediate(() => (clearTimeout(timer), reject(this.exitError ?? err))));
      });
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (this.child) {
      killGroup(this.child);
      this.child.stdout.destroy();
      this.child.stdin.destroy();
    }
    this.stderr?.end();
    this.onclose?.();
    return Promise.resolve();
  }

  private fault(error: Error): void {
    if (this.closed) return;
    this.opts.onfault(error);
    void this.close();
  }
}
