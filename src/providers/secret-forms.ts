/**
 * The forms a secret takes in stored text besides its own: what a JSON writer, a URL and base64 make
 * of it. A judge that quotes `tok"x\y` answers with `tok\"x\\y` in its JSON; an agent that builds a
 * query string or a Basic header writes it percent- or base64-encoded. The redactor matches every
 * form as it matches the secret itself.
 */

/**
 * The secret and its encoded forms, each once: JSON-escaped (as JSON.stringify writes it, again as a
 * JSON text of that text carries it, and with non-ASCII as `\uXXXX`, as Python's json writes it),
 * URL-encoded (encodeURIComponent, form encoding with `+` for a space, lower-case hex) and base64
 * (standard and URL alphabets; see base64Forms). Forms identical to the secret are not repeated.
 */
export function secretForms(secret: string): string[] {
  const json = jsonEscaped(secret);
  const forms = [secret, json, jsonEscaped(json), asciiJson(json), ...urlForms(secret), ...base64Forms(Buffer.from(secret, 'utf8'))];
  return [...new Set(forms)];
}

/** The text as it stands between the quotes of its JSON string. */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A JSON-escaped text with every non-ASCII character written as `\uXXXX` (lower-case hex, as Python's json.dumps does by default). */
function asciiJson(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Percent-encodings of the secret: none when it holds a lone surrogate (no UTF-8 for it, so no URL either). */
function urlForms(secret: string): string[] {
  let component: string;
  try {
    component = encodeURIComponent(secret);
  } catch {
    return [];
  }
  // application/x-www-form-urlencoded (URLSearchParams, HTML forms): `+` for a space, `!'()~` encoded too.
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  return [component, form, ...[component, form].map((s) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()))];
}

/**
 * Base64 of the secret's bytes. What stands for them in an encoded stream depends on where they start
 * in it (one of 3 offsets within a 3-byte group), and the characters at the edges mix in bits of the
 * bytes around them. So for each offset this gives the characters made of the secret's bits alone
 * (the "core": all of the secret but at most its first and last byte's edge bits), which occur
 * wherever the secret is encoded inside a longer value (`user:<secret>` in a Basic header, a JSON
 * config); plus the encoding of the secret alone, padded and not, replaced whole when it is all there
 * is. Each in the standard and the URL-safe alphabet. Base64 broken across lines (MIME, PEM) is not
 * matched: a line break may fall anywhere in it.
 */
export function base64Forms(bytes: Buffer): string[] {
  const alone = bytes.toString('base64');
  const out = [alone, alone.replace(/=+$/, '')];
  for (let offset = 0; offset < 3; offset++) {
    // Zero bytes stand for whatever precedes and follows; only the characters whose 6 bits all fall
    // inside the secret's bytes are kept.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    out.push(encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)));
  }
  return [...out, ...out.map((s) => s.replace(/\+/g, '-').replace(/\//g, '_'))];
}
