/**
 * The fake OpenAI server's `POST /v1/embeddings`, validating the body as the real endpoint does
 * (OpenAI API reference, Embeddings, as the SDK 6.49 types state it): `model` an embedding model
 * (else 404 model_not_found), `input` a non-empty string or a non-empty array of them (or of token
 * ids), `encoding_format` float or base64, `dimensions` only for models that take it and no larger
 * than the model's own size, no other field. Vectors are the offline embedder's (fake-embedder.ts)
 * folded to the model's size and normalized as OpenAI's are, so similarity over the SDK path means
 * the same as offline; each input counts one token per word.
 */
import { FAKE_DIMENSIONS, fakeEmbedding } from '../../src/providers/fake-embedder.js';
import { openAIEmbeddingRow } from '../../src/providers/embedding-models.js';
import type { OpenAIRefusal } from './fake-openai-rules.js';

type Refusal = { status: 400 | 404; detail: OpenAIRefusal };

const FIELDS = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);
const MAX_INPUTS = 2048;

const refuse = (message: string, param: string | null, status: 400 | 404 = 400, code: string | null = null): Refusal => ({ status, detail: { message, param, code } });

export function validateEmbeddings(body: any): Refusal | undefined {
  if (!body || typeof body !== 'object') return refuse('We could not parse the JSON body of your request.', null);
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) return refuse(`Unrecognized request argument supplied: ${key}`, key);
  if (typeof body.model !== 'string' || body.model === '') return refuse('you must provide a model parameter', 'model');
  const row = openAIEmbeddingRow(body.model);
  if (!row) return refuse(`The model \`${body.model}\` does not exist or you do not have access to it.`, 'model', 404, 'model_not_found');
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : undefined;
  if (!texts || texts.length === 0 || texts.length > MAX_INPUTS) return refuse("'$.input' is invalid. Please check the API reference.", 'input');
  const ok = (x: unknown) => (typeof x === 'string' && x !== '') || Number.isInteger(x) || (Array.isArray(x) && x.length > 0 && x.every(Number.isInteger));
  if (!texts.every(ok)) return refuse("'$.input' is invalid. Please check the API reference.", 'input');
  if (body.encoding_format !== undefined && body.encoding_format !== 'float' && body.encoding_format !== 'base64') {
    return refuse(`'${String(body.encoding_format)}' is not one of ['float', 'base64'] - 'encoding_format'`, 'encoding_format');
  }
  if (body.dimensions !== undefined) {
    if (!row.acceptsDimensions) return refuse('This model does not support specifying dimensions.', 'dimensions');
    if (!Number.isInteger(body.dimensions) || body.dimensions < 1 || body.dimensions > row.dimensions) {
      return refuse(`Invalid 'dimensions': must be an integer from 1 to ${row.dimensions}.`, 'dimensions');
    }
  }
  return undefined;
}

/** The 200 body for a valid request. */
export function embeddingsBody(body: any): string {
  const row = openAIEmbeddingRow(body.model)!;
  const size: number = body.dimensions ?? row.dimensions;
  const inputs: unknown[] = typeof body.input === 'string' || !Array.isArray(body.input) || body.input.every(Number.isInteger) ? [body.input] : body.input;
  let tokens = 0;
  const data = inputs.map((input, index) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    tokens += typeof input === 'string' ? Math.max(1, input.split(/\s+/).filter(Boolean).length) : [input].flat().length;
    const vector = folded(fakeEmbedding(text), size);
    return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? base64Of(vector) : vector };
  });
  return JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** The offline vector folded into `size` slots and scaled to length 1 (OpenAI's embeddings are normalized). */
function folded(v: number[], size: number): number[] {
  const out = new Array<number>(size).fill(0);
  for (let i = 0; i < FAKE_DIMENSIONS; i++) out[i % size]! += v[i]!;
  const norm = Math.hypot(...out);
  return norm === 0 ? out : out.map((x) => x / norm);
}

/** Little-endian float32s, base64: what the SDK decodes when it asked for base64. */
function base64Of(v: number[]): string {
  return Buffer.from(new Float32Array(v).buffer).toString('base64');
}
