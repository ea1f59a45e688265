/**
 * A Response whose body was already read whole into memory (node-fetch.ts reads provider replies to
 * their end under a size cap). A standard Response built on those bytes wraps them in a web stream
 * and reads them back out through it, which costs more CPU than the SDK's own parsing of the reply
 * (about 30 µs a call, measured; twice per trial). This one keeps the bytes and answers `text()`,
 * `json()` and `arrayBuffer()` from them directly; anything else (`body`, `blob()`, `formData()`,
 * `clone()`) gets a standard Response over the same bytes, made when asked for. The base object
 * carries status and headers, so `instanceof Response`, `ok` and `headers` are the real thing.
 */
export class BufferedResponse extends Response {
  readonly #bytes: Buffer;
  #used = false;
  /** Once made (for `body`, `blob()`, ...), every body member goes through it. */
  #standard: Response | undefined;

  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  /** The bytes, once (a body is read once, as with any Response). */
  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  /** A standard Response over the bytes (none once they were read), for what this class does not answer itself. */
  #full(): Response {
    return (this.#standard ??= new Response(this.#used ? null : this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  static {
    // Response's body members are declared as properties (undici-types), so they are replaced on the
    // prototype rather than overridden as methods; the behaviour is the standard one.
    const text = (r: BufferedResponse): string => {
      const s = r.#take().toString('utf8');
      // UTF-8 decoding for a body drops a leading byte-order mark, as Response.text() does.
      return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
    };
    const read = <T>(fast: (r: BufferedResponse) => T, standard: (res: Response) => Promise<T>) =>
      function (this: BufferedResponse): Promise<T> {
        if (this.#standard) return standard(this.#standard);
        try {
          return Promise.resolve(fast(this));
        } catch (err) {
          return Promise.reject(err);
        }
      };
    Object.defineProperties(this.prototype, {
      text: { value: read(text, (res) => res.text()) },
      json: {
        value: read(
          (r) => JSON.parse(text(r)) as unknown,
          (res) => res.json(),
        ),
      },
      arrayBuffer: {
        value: read(
          (r) => {
            const b = r.#take();
            return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
          },
          (res) => res.arrayBuffer(),
        ),
      },
      blob: {
        value(this: BufferedResponse) {
          return this.#full().blob();
        },
      },
      formData: {
        value(this: BufferedResponse) {
          return this.#full().formData();
        },
      },
      body: {
        get(this: BufferedResponse) {
          return this.#full().body;
        },
      },
      bodyUsed: {
        get(this: BufferedResponse) {
          return this.#standard ? this.#standard.bodyUsed : this.#used;
        },
      },
      clone: {
        value(this: BufferedResponse) {
          if (this.#standard || this.#used) return this.#full().clone();
          return new BufferedResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
        },
      },
    });
  }
}
