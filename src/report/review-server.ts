import { z } from 'zod';
import { writeAtomic } from './atomic-write.js';
import { withFileLock } from './file-lock.js';
import { COMMON_HEADERS, LOCAL_HOST, Refusal, sendHtml, startLocalServer } from './local-server.js';
import { parseJson, readBody } from './request-body.js';
import { labelRow, REVIEW_SCALE, type ReviewItem, type ReviewLabel } from './review-items.js';
import { reviewCsp, reviewPageHtml } from './review-page.js';

/** A label is a few dozen bytes; a body past this is refused unread (413). */
export const MAX_LABEL_BODY = 4096;

/** What the labels file holds now, as `review` reads it. */
export interface StoredLabels {
  /** Labels by trial id. */
  labels: ReadonlyMap<string, ReviewLabel>;
  /** Rows that name no trial of these results: written back as they were. */
  otherRows: readonly object[];
}

export interface ReviewServerOptions {
  items: ReviewItem[];
  /**
   * Reads the labels file (empty when there is none): once as the server starts (a resumed review),
   * and again before each write, so a label another `review` of the same file saved meanwhile is kept.
   */
  read: () => Promise<StoredLabels>;
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
  /** The labels file as last read: these labels are what it holds of these trials. */
  const adopt = (stored: StoredLabels): void => {
    labels.clear();
    for (const [id, label] of stored.labels) if (known.has(id)) labels.set(id, label);
  };
  adopt(await opts.read());
  let writes: Promise<void> = Promise.resolve();

  /**
   * Saves one trial's label (undefined clears it). One writer per labels file: under its lock file,
   * the file is read again, this one label set on what it holds (another session's labels, rows of
   * other results), and the whole written back atomically. Within this process, one write at a time,
   * in the order the labels came.
   */
  const save = (id: string, label: ReviewLabel | undefined): Promise<void> => {
    const write = () =>
      withFileLock(`${opts.labelsPath}.lock`, async () => {
        const stored = await opts.read();
        adopt(stored);
        if (label) labels.set(id, label);
        else labels.delete(id);
        const rows: object[] = [];
        for (const item of opts.items) {
          const row = labelRow(item, labels.get(item.id) ?? {});
          if (row) rows.push(row);
        }
        const text = [...rows, ...stored.otherRows].map((r) => JSON.stringify(r) + '\n').join('');
        await writeAtomic(opts.labelsPath, (w) => w(text));
      });
    const done = writes.then(write);
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
      const parsed = LabelPostSchema.safeParse(parseJson(await readBody(req, MAX_LABEL_BODY, 'a label')));
      if (!parsed.success) throw new Refusal(400, 'expected { id, humanVerdict: "pass" | "fail" | null, humanScore: 1..10 | null }');
      const { id, humanVerdict, humanScore } = parsed.data;
      if (!known.has(id)) throw new Refusal(400, 'no such trial in these results');
      const label: ReviewLabel = { ...(humanVerdict !== null ? { humanVerdict } : {}), ...(humanScore !== null ? { humanScore } : {}) };
      await save(id, label.humanVerdict === undefined && label.humanScore === undefined ? undefined : label);
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
