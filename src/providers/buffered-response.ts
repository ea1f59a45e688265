/**
 * A Response whose body was already read whole into memory (node-fetch.ts reads provider replies to
 * their end under a size cap). A standard Response costs more CPU to make than the SDK spends
 * parsing the reply: its constructor converts and validates its init, and a body given to it is
 * wrapped in a web stream and read back out through it. This one keeps the status, the raw headers
 * and the bytes: `text()`, `json()` and `arrayBuffer()` answer from the bytes directly, `headers`
 * is a standard Headers made when first read, and anything else (`body`, `blob()`, `formData()`,
 * `clone()` after a read) gets a standard Response over the same bytes, made when asked for. It has
 * every member of a Response (what the SDKs read of a fetch's answer), but is not an instance of
 * the class: nothing of undici is loaded or run until a member needs it.
 */
export class BufferedResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly type: Response['type'] = 'default';
  readonly url: string = '';
  readonly redirected: boolean = false;
  readonly #bytes: Buffer;
  readonly #init: BufferedResponseInit;
  #headers: Headers | undefined;
  #used = false;
  /** Once made (for `body`, `blob()`, ...), every body member goes through it. */
  #standard: Response | undefined;

  constructor(bytes: Buffer, init: BufferedResponseInit) {
    this.#bytes = bytes;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.ok = init.status >= 200 && init.status <= 299;
    this.#init = init;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#init));
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#full().body;
  }

  get bodyUsed(): boolean {
    return this.#standard ? this.#standard.bodyUsed : this.#used;
  }

  text(): Promise<string> {
    return this.#read(
      (r) => r.#text(),
      (res) => res.text(),
    );
  }

  json(): Promise<unknown> {
    return this.#read(
      (r) => JSON.parse(r.#text()) as unknown,
      (res) => res.json(),
    );
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read(
      (r) => {
        const b = r.#take();
        const copy = new ArrayBuffer(b.byteLength);
        new Uint8Array(copy).set(b);
        return copy;
      },
      (res) => res.arrayBuffer(),
    );
  }

  blob(): Promise<Blob> {
    return this.#full().blob();
  }

  formData(): Promise<FormData> {
    return this.#full().formData();
  }

  clone(): Response {
    if (this.#standard || this.#used) return this.#full().clone();
    return new BufferedResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }

  /** The bytes, once (a body is read once, as with any Response). */
  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  #text(): string {
    const s = this.#take().toString('utf8');
    // UTF-8 decoding for a body drops a leading byte-order mark, as Response.text() does.
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }

  #read<T>(fast: (r: BufferedResponse) => T, standard: (res: Response) => Promise<T>): Promise<T> {
    if (this.#standard) return standard(this.#standard);
    try {
      return Promise.resolve(fast(this));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** A standard Response over the bytes (none once they were read), for what this class does not answer itself. */
  #full(): Response {
    return (this.#standard ??= new Response(this.#used ? null : this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }
}

export interface BufferedResponseInit {
  status: number;
  statusText?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  /** The headers as node:http's `rawHeaders` (name, value, name, value ...), read only when `headers` is. */
  rawHeaders?: readonly string[];
}

function headersOf(init: BufferedResponseInit): Headers {
  const headers = new Headers(init.headers);
  const raw = init.rawHeaders;
  if (raw) for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
