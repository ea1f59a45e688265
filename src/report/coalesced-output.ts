/** Text waits at most this long before it is written... */
const FLUSH_MS = 100;
/** ...or until this much has gathered. */
const FLUSH_CHARS = 64 * 1024;

export interface CoalescedOutput {
  write(text: string): void;
  /** Writes what has gathered, now. */
  flush(): void;
}

/**
 * Text for a stream that no one watches redraw (stdout off a TTY: a CI log, a pipe), gathered and
 * written in one piece every FLUSH_MS rather than one write (a system call on a pipe) per case. The
 * text and its order are unchanged. What has gathered when the process exits (a second Ctrl-C, an
 * exit called anywhere) is written then: stdout's writes to a file or a pipe are synchronous there.
 */
export function coalescedOutput(out: { write(text: string): unknown }): CoalescedOutput {
  let made = shared.get(out);
  if (!made) {
    made = gathering(out);
    shared.set(out, made);
  }
  return made;
}

/**
 * One per stream: the reporters writing to stdout (terminal, github) share it, so their lines keep
 * the order they were written in.
 */
const shared = new WeakMap<object, CoalescedOutput>();

/** Whether stdout shows a live progress line (a TTY outside CI); off it, stdout's text is coalesced. */
export function stdoutIsLive(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.CI;
}

function gathering(out: { write(text: string): unknown }): CoalescedOutput {
  let pending: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    process.off('exit', flush);
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    chars = 0;
    out.write(text);
  };
  return {
    write(text) {
      if (pending.length === 0) {
        process.on('exit', flush);
        // Unref'd: a gathered line never keeps the process alive; the exit listener writes it.
        timer = setTimeout(flush, FLUSH_MS);
        timer.unref();
      }
      pending.push(text);
      chars += text.length;
      if (chars >= FLUSH_CHARS) flush();
    },
    flush,
  };
}
