/**
 * The one list of token shapes every masker knows: provider errors, the recorded argv, and the
 * run's redactor (which also takes any shaped value it finds in the environment or the config as a
 * secret of the run). Each shape's first group is kept (a scheme, a URL's user), its second is the
 * secret. No nested quantifiers, so no pattern can backtrack catastrophically.
 */
/** A credential after an HTTP auth scheme. */
const AUTH_CREDENTIAL = /\b((?:Bearer|Basic)\s+)([A-Za-z0-9._~+/=-]+)/gi;

const SECRET_SHAPES: readonly RegExp[] = [
  AUTH_CREDENTIAL,
  // OpenAI and Anthropic keys.
  /()\b((?:sk|sk-ant|sk-proj)-[A-Za-z0-9_-]{6,})/g,
  // GitHub tokens.
  /()\b((?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{10,})/g,
  // GitLab tokens (personal, deploy, runner, trigger, feed, OAuth application secrets).
  /()\b((?:glpat|gldt|glrt|glptt|glft|gloas|glcbt|glsoat)-[A-Za-z0-9_.-]{16,})/g,
  // Google API keys.
  /()\b(AIza[0-9A-Za-z_-]{35})/g,
  // AWS access key ids.
  /()\b((?:AKIA|ASIA)[A-Z0-9]{16})\b/g,
  // Slack tokens.
  /()\b(xox[abposr]-[A-Za-z0-9-]{10,})/g,
  // JSON Web Tokens: base64url header (always `{"…` so `eyJ`), payload and signature.
  /()\b(eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]+)/g,
  // The password in a URL's user info (`scheme://user:password@host`).
  /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:]*:)([^\s/?#@]+)(?=@)/g,
];

/** The text with the secret part of every shaped token replaced by `mark`. */
export function maskShapes(text: string, mark: string): string {
  let out = text;
  for (const shape of SECRET_SHAPES) out = out.replace(shape, `$1${mark}`);
  return out;
}

/** The secret parts of every shaped token in the text: values the run then redacts wherever they appear. */
export function shapedSecrets(text: string): string[] {
  const out: string[] = [];
  for (const shape of SECRET_SHAPES) {
    for (const m of text.matchAll(shape)) {
      // "Basic settings" in a description is prose: a credential taken as a run secret has a digit.
      if (shape !== AUTH_CREDENTIAL || /\d/.test(m[2]!)) out.push(m[2]!);
    }
  }
  return out;
}
