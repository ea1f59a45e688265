import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { writeAtomic } from './atomic-write.js';
import { COMMON_HEADERS, LOCAL_HOST, Refusal, sendHtml, startLocalServer } from './local-server.js';
import { labelRow, REVIEW_SCALE, type ReviewItem, type ReviewLabel } from './review-items.js';
import { reviewCsp, reviewPageHtml } from './review-page.js';
import { pushAll } from '../core/push-all.js';

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

/**
 * Serves the review page on 127.0.0.1 under a random token (`/<token>/`) and saves each label the
 * page posts (`POST /<token>/label`) by rewriting the labels file atomically, one write at a time.
 * A request without the token, or for another host (a DNS-rebound name), gets 403 and nothing else.
 */
export async function startReviewServer(opts: ReviewServerOptions): Promise<ReviewServer> {
  const known = new Map(opts.items.map((item) => [item.id, item]));
  const labels = new Map<string, ReviewLabel>();
  for (const [id, label] of opts.labels) if (known.has(id)) labels.set(id, label);
  let writes: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const rows: object[] = [];
    for (const item of opts.items) {
      const row = labelRow(item, labels.get(item.id) ?? {});
      if (row) rows.push(row);
    }
    pushAll(rows, opts.otherRows);
    const text = rows.map((r) => JSON.stringify(r) + '\n').join('');
    // One write at a time, in the order the labels came: the file always holds the latest.
    const done = writes.then(() => writeAtomic(opts.labelsPath, (write) => write(text)));
    writes = done.catch(() => {});
    return done;
  };

  const page = (): string => reviewPageHtml({ items: opts.items, labels: Object.fromEntries(labels), scale: REVIEW_SCALE, file: opts.labelsShown });

  let origin = '';
  const server = await startLocalServer(
    opts.port,
    async (path, req, res) => {
      if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) return sendHtml(req, res, page(), reviewCsp());
      if (path !== '/label') throw new Refusal(404, 'not found');
      if (req.method !== 'POST') throw new Refusal(405, 'POST a label');
      // A page of another origin cannot post JSON here without a preflight, which this server never answers.
      if (req.headers.origin !== undefined && req.headers.origin !== origin) throw new Refusal(403, 'forbidden');
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
    },
    (err) => `could not save the label: ${err.message}`,
  );
  origin = `http://${LOCAL_HOST}:${server.port}`;

  return {
    url: server.url,
    labelled: () => labels.size,
    close: async () => {
      await server.close();
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
