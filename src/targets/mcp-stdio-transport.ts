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
 * is left on Ctrl-C. Its stderr goes to a file (or nowhere), never to the runner's terminal.
 */
export interface GroupStdioOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Appended to; the server's own log. */
  stderrFile?: string | undefined;
  /** Largest message (one line of stdout) read; past it `onfault` is told and the server stopped. */
  maxMessageBytes: number;
  /** A failure that ends the connection: the process exited, failed to start, or wrote too much. */
  onfault(error: Error): void;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private stderr: WriteStream | undefined;
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
    } else child.stderr.resume();
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
    // Why a server died is in its stderr, which goes to the log file only: the error says where to look.
    const log = opts.stderrFile ? `; its stderr is in ${opts.stderrFile}` : '';
    child.on('exit', (code, signal) => this.fault(new Error(`the server process exited (${signal ?? `code ${code}`})${log}`)));
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
      child.stdin.write(this.stdio.serializeMessage(message), (err) => (err ? reject(err) : resolve()));
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
