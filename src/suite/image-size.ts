/**
 * An image's width and height read from its header, for the types the providers take (PNG, GIF,
 * JPEG, WebP); undefined when the header is too short or unknown. Enough to refuse an image a
 * provider would reject for its dimensions before any paid call, without decoding it.
 */
export function imageSize(b: Buffer, mediaType: string): { width: number; height: number } | undefined {
  try {
    if (mediaType === 'image/png') return b.toString('latin1', 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined;
    if (mediaType === 'image/gif') return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : undefined;
    if (mediaType === 'image/jpeg') return jpegSize(b);
    if (mediaType === 'image/webp') return webpSize(b);
  } catch {
    // A header cut short: the provider is left to judge it.
  }
  return undefined;
}

/** The first start-of-frame segment's size (SOF0 to SOF15, but DHT, JPG and DAC, which share the range). */
function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}

/** The canvas of a VP8X, the frame of a lossy VP8 or lossless VP8L WebP. */
function webpSize(b: Buffer): { width: number; height: number } | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}
