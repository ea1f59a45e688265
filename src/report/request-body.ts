import type { IncomingMessage } from 'node:http';
import { Refusal } from './local-server.js';

/** A local page's posted body, refused (413) past `max` bytes; `what` names it in the refusal (`a label`). */
export function readBody(req: IncomingMessage, max: number, what: string): Promise<string> {
  const tooLarge = () => new Refusal(413, `${what} is at most ${max} bytes`);
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A posted body as JSON, refused (400) when it is not. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(400, 'not JSON');
  }
}
