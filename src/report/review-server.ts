import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { writeAtomic } from './atomic-write.js';
import { labelRow, REVIEW_SCALE, type ReviewItem, type ReviewLabel } from './review-items.js';
import { reviewCsp, reviewPageHtml } from './review-page.js';

/** The only interface the review server listens on: the page and its labels never leave the machine. */
export const REVIEW_HOST = '127.0.0.1';
/** A label is a few dozen bytes; a body past this is refused unread (413). */
export const MAX_LABEL_BODY = 4096;

export interface ReviewServerOptions {
  items: ReviewItem[];
  /** Labels already in the labels file, by trial id (a resumed review). */
  labels: ReadonlyMap<string, ReviewLabel>;
  /** Rows of the labels file that name no trial of these results: written back as they were. */
  otherRows: readonly object[];
  /** The labels file (JSONL), the one file the server writes. */
  labelsPath: string;
  /** The labels file as the page names it. */
  labelsShown: string;
  /** 0: any free port. */
  port: number;
}

export interface ReviewServer {
  /** The page's address, token included: whoever has it can label. */
  url: string;
  /** Labelled trials so far. */
  labelled(): number;
  /** Stops listening, drops open connections and waits for the last labels write. */
  close(): Promise<void>;
}

/** What the page posts: one trial's whole label (null clears a field). */
const LabelPostSchema = z
  .object({
    id: z.string(),
    humanVerdict: z.enum(['pass', 'fail']).nullable(),
    humanScore: z.number().int().min(1).max(REVIEW_SCALE).nullable(),
  })
  .strict();

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/**
 * Serves the review page on 127.0.0.1 under a random token (`/<token>/`) and saves each label the
 * page posts (`POST /<token>/label`) by rewriting the labels file atomically, one write at a time.
 * A request without the token, or for another host (a DNS-rebound name), gets 403 and nothing else.
 */
export async function startReviewServer(opts: ReviewServerOptions): Promise<ReviewServer> {
  const token = randomBytes(24).toString('base64url');
  const known = new Map(opts.items.map((item) => [item.id, item]));
  const labels = new Map<string, ReviewLabel>();
  for (const [id, label] of opts.labels) if (known.has(id)) labels.set(id, label);
  let port = opts.port;
  let writes: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const rows: object[] = [];
    for (const item of opts.items) {
      const row = labelRow(item, labels.get(item.id) ?? {});
      if (row) rows.push(row);
    }
    rows.push(...opts.otherRows);
    const text = rows.map((r) => JSON.stringify(r) + '\n').join('');
    // One write at a time, in the order the labels came: the file always holds the latest.
    const done = writes.then(() => writeAtomic(opts.labelsPath, (write) => write(text)));
    writes = done.catch(() => {});
    return done;
  };

  const page = (): string => reviewPageHtml({ items: opts.items, labels: Object.fromEntries(labels), scale: REVIEW_SCALE, file: opts.labelsShown });

  const authorised = (req: IncomingMessage): string | undefined => {
    if (req.headers.host !== `${REVIEW_HOST}:${port}`) return undefined;
    const url = req.url ?? '';
    const given = Buffer.from(url.slice(1, 1 + token.length));
    const wanted = Buffer.from(token);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted) || url[1 + token.length] !== '/') return undefined;
    return url.slice(1 + token.length);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = authorised(req);
    if (path === undefined) throw new Refusal(403, 'forbidden');
    if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      const body = page();
      res.writeHead(200, {
        ...COMMON_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': `${reviewCsp()}; frame-ancestors 'none'`,
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (path !== '/label') throw new Refusal(404, 'not found');
    if (req.method !== 'POST') throw new Refusal(405, 'POST a label');
    // A page of another origin cannot post JSON here without a preflight, which this server never answers.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${REVIEW_HOST}:${port}`) throw new Refusal(403, 'forbidden');
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new Refusal(415, 'send application/json');
    const parsed = LabelPostSchema.safeParse(parseJson(await readBody(req)));
    if (!parsed.success) throw new Refusal(400, 'expected { id, humanVerdict: "pass" | "fail" | null, humanScore: 1..10 | null }');
    const { id, humanVerdict, humanScore } = parsed.data;
    if (!known.has(id)) throw new Refusal(400, 'no such trial in these results');
    const label: ReviewLabel = { ...(humanVerdict !== null ? { humanVerdict } : {}), ...(humanScore !== null ? { humanScore } : {}) };
    if (label.humanVerdict === undefined && label.humanScore === undefined) labels.delete(id);
    else labels.set(id, label);
    await save();
    const body = JSON.stringify({ labelled: labels.size, trials: opts.items.length });
    res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'application/json' });
    res.end(body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const refusal = err instanceof Refusal ? err : new Refusal(500, `could not save the label: ${(err as Error).message}`);
      if (res.headersSent) return void res.destroy();
      // A refused body is not read on: the connection closes once the answer is out.
      res.writeHead(refusal.status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end(`${refusal.message}\n`);
    });
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, REVIEW_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${REVIEW_HOST}:${port}/${token}/`,
    labelled: () => labels.size,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await writes;
    },
  };
}

/** The request's body, refused (413) past MAX_LABEL_BODY bytes. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_LABEL_BODY) return reject(new Refusal(413, `a label is at most ${MAX_LABEL_BODY} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_LABEL_BODY) {
        req.pause();
        reject(new Refusal(413, `a label is at most ${MAX_LABEL_BODY} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(400, 'not JSON');
  }
}
