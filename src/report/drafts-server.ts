import { z } from 'zod';
import { COMMON_HEADERS, LOCAL_HOST, Refusal, sendHtml, startLocalServer } from './local-server.js';
import { parseJson, readBody } from './request-body.js';
import { draftsCsp, draftsPageHtml } from './drafts-page.js';
import type { DraftAction, DraftItem, DraftOutcome } from '../core/draft-review.js';

/** An edit carries an input, a reference and assertions: a body past this is refused unread (413). */
export const MAX_DRAFT_BODY = 256 * 1024;

export interface DraftsServerOptions {
  /** The eval file as the page names it. */
  file: string;
  /** The file's drafts as it holds them now: read for each page load. */
  drafts(): Promise<DraftItem[]>;
  /** Applies one action to the file (read again first, written atomically) and says what came of it. */
  act(action: DraftAction): Promise<DraftOutcome>;
  /** 0: any free port. */
  port: number;
}

export interface DraftsServer {
  /** The page's address, token included: whoever has it can change the file. */
  url: string;
  /** Actions done so far, by kind. */
  counts(): { accepted: number; rejected: number; edited: number };
  /** Stops listening, drops open connections and waits for the last write. */
  close(): Promise<void>;
}

const ActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), id: z.string().min(1) }).strict(),
  z.object({ action: z.literal('reject'), id: z.string().min(1) }).strict(),
  z.object({ action: z.literal('edit'), id: z.string().min(1), input: z.string().optional(), reference: z.string().optional(), assert: z.string().optional() }).strict(),
]);

/**
 * Serves the drafts page on 127.0.0.1 under a random token (`/<token>/`) and applies each action the
 * page posts (`POST /<token>/draft`), one at a time in the order they came. A request without the
 * token, or for another host, gets 403. A refused edit is 400 and a draft no longer in the file is
 * 409, each with the reason as plain text; the file is then unchanged.
 */
export async function startDraftsServer(opts: DraftsServerOptions): Promise<DraftsServer> {
  const counts = { accepted: 0, rejected: 0, edited: 0 };
  let writes: Promise<unknown> = Promise.resolve();
  const serial = (action: DraftAction): Promise<DraftOutcome> => {
    const done = writes.then(() => opts.act(action));
    writes = done.catch(() => {});
    return done;
  };

  let origin = '';
  const server = await startLocalServer(
    opts.port,
    async (path, req, res) => {
      if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) return sendHtml(req, res, draftsPageHtml({ file: opts.file, drafts: await opts.drafts() }), draftsCsp());
      if (path !== '/draft') throw new Refusal(404, 'not found');
      if (req.method !== 'POST') throw new Refusal(405, 'POST an action');
      // A page of another origin cannot post JSON here without a preflight, which this server never answers.
      if (req.headers.origin !== undefined && req.headers.origin !== origin) throw new Refusal(403, 'forbidden');
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new Refusal(415, 'send application/json');
      const parsed = ActionSchema.safeParse(parseJson(await readBody(req, MAX_DRAFT_BODY, 'an action')));
      if (!parsed.success) throw new Refusal(400, 'expected { action: "accept" | "reject", id } or { action: "edit", id, input?, reference?, assert? }');
      const outcome = await serial(parsed.data);
      if (!outcome.ok) throw new Refusal(outcome.why === 'gone' ? 409 : 400, outcome.message);
      counts[({ accept: 'accepted', reject: 'rejected', edit: 'edited' } as const)[parsed.data.action]]++;
      res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'application/json' });
      res.end(JSON.stringify(outcome));
    },
    (err) => `could not change the file: ${err.message}`,
  );
  origin = `http://${LOCAL_HOST}:${server.port}`;

  return {
    url: server.url,
    counts: () => ({ ...counts }),
    close: async () => {
      await server.close();
      await writes;
    },
  };
}
