/**
 * Image dimensions read from headers, and the plan-time refusal of an image larger than Anthropic's
 * 8000x8000 px (its "Vision" guide): a wide image is a user error naming the part before any call.
 */
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../src/suite/image-size.js';
import { runInProcess } from '../support/run-in-process.js';
import { BIG_PNG, IMAGE_PNG } from './image-fixtures.js';

/** A PNG whose IHDR says width x height (the rest of the file does not matter to the header). */
function pngOf(width: number, height: number): Buffer {
  const b = Buffer.from(IMAGE_PNG);
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

describe('imageSize', () => {
  it('reads PNG, GIF, JPEG and WebP headers', () => {
    expect(imageSize(IMAGE_PNG, 'image/png')).toEqual({ width: 1, height: 1 });
    expect(imageSize(pngOf(9000, 20), 'image/png')).toEqual({ width: 9000, height: 20 });
    const gif = Buffer.from('GIF89a\x40\x01\xf0\x00', 'latin1');
    expect(imageSize(gif, 'image/gif')).toEqual({ width: 320, height: 240 });
    // SOI, an APP0 segment of 4 bytes, then SOF0: length 17, precision 8, height 600, width 800.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03]);
    expect(imageSize(jpeg, 'image/jpeg')).toEqual({ width: 800, height: 600 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1919, 24, 3);
    webp.writeUIntLE(1079, 27, 3);
    expect(imageSize(webp, 'image/webp')).toEqual({ width: 1920, height: 1080 });
    // Signature only, no IHDR: unknown, left to the provider.
    expect(imageSize(BIG_PNG, 'image/png')).toBeUndefined();
  });

  it('is undefined for a header cut short, even when the bytes after it in memory would complete it', () => {
    // Small Buffers share Node's pool: the bytes after a short one belong to another Buffer.
    const pool = Buffer.from('GIF89a\x40\x01\xf0\x00', 'latin1');
    expect(imageSize(pool.subarray(0, 8), 'image/gif')).toBeUndefined();
    expect(imageSize(pngOf(9000, 20).subarray(0, 18), 'image/png')).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04]), 'image/jpeg')).toBeUndefined();
  });

  it('is undefined when the bytes are another type than the one named', () => {
    expect(imageSize(IMAGE_PNG, 'image/gif')).toBeUndefined();
    expect(imageSize(IMAGE_PNG, 'application/pdf')).toBeUndefined();
  });
});

describe('an image wider than 8000 px', () => {
  it('is a user error naming the eval file and the part, before any trial', async () => {
    const files = {
      'evals/wide.eval.yaml': `suite: wide
target: fn
cases:
  - id: banner
    input:
      - { type: text, text: Read the banner. }
      - { type: image, path: banner.png }
    assert: [{ type: contains, value: a }]
`,
      'evals/banner.png': pngOf(8001, 100),
    };
    let calls = 0;
    const failure = await runInProcess({ files, config: { targets: { fn: () => (calls++, 'a') } } }).then(
      () => 'ran',
      (e: Error) => `${e.constructor.name}: ${e.message}`,
    );
    expect(failure).toMatch(/^UserError: evals\/wide\.eval\.yaml:\d+: input\.1: banner\.png is 8001x100 px; Anthropic rejects images larger than 8000x8000 px$/);
    expect(calls).toBe(0);
  });
});
