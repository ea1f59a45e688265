/**
 * The one reading of a structured answer the attacker, the user model and the generator share: JSON
 * (inside a ```json fence too), checked against a zod schema, the first problem with where it is.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { problemText, readStructured } from '../../src/providers/structured-answer.js';

const Schema = z.object({ items: z.array(z.object({ n: z.number().int() }).strict()) }).strict();

describe('readStructured', () => {
  it('reads JSON, fenced or not, into the schema value', () => {
    expect(readStructured('{"items":[{"n":1}]}', Schema)).toEqual({ value: { items: [{ n: 1 }] } });
    expect(readStructured('```json\n{"items":[]}\n```', Schema)).toEqual({ value: { items: [] } });
  });

  it('says "not JSON", or the first issue and where it is', () => {
    const notJson = readStructured('Here you go: items', Schema);
    expect(notJson).toEqual({ problem: { notJson: true, path: '', message: 'not JSON' } });
    const wrong = readStructured('{"items":[{"n":1},{"n":"two"}]}', Schema);
    expect('problem' in wrong && wrong.problem).toMatchObject({ notJson: false, path: 'items.1.n' });
    expect('problem' in wrong && problemText(wrong.problem)).toMatch(/^ at items\.1\.n: /);
    expect('problem' in notJson && problemText(notJson.problem)).toBe(': not JSON');
  });
});
