import { redactSecrets } from '../providers/errors.js';

/** An option whose name says its value is a credential (`--api-key`, `--token`, `--header`, …). */
const SECRET_OPTION = /^--?[\w-]*(key|token|secret|password|passwd|authorization|auth|header|credential)[\w-]*$/i;
/**
 * Short flags that carry a key, password, user:password or header in the common tools (`-k`, `-p`,
 * `-u`, `-H`, `-a`). No agent-evals command has any of them (its short flags are -c -f -j -o -r -t
 * -v -w -V -h), so masking their value never hides an argument of its own: it catches a credential
 * typed for another tool, given separately (`-k v`) or attached (`-kv`).
 */
const SECRET_SHORT_FLAG = /^-[kpuHa]$/;
const ATTACHED_SHORT = /^(-[kpuHa])(.+)$/;

/**
 * Arguments as the results record them: `--api-key=…`-style values and the argument after a
 * `--api-key`-style option or a secret-carrying short flag are masked, and tokens are redacted by
 * the same shapes as provider errors (secret-shapes.ts: API keys, auth scheme credentials, GitHub,
 * GitLab, Google, AWS and Slack tokens, JWTs, URL passwords).
 */
export function redactArgv(args: string[]): string[] {
  return args.map((a, i) => {
    const prev = i > 0 ? args[i - 1]! : '';
    if ((SECRET_OPTION.test(prev) || SECRET_SHORT_FLAG.test(prev)) && !a.startsWith('-')) return '[redacted]';
    const attached = ATTACHED_SHORT.exec(a);
    if (attached) return `${attached[1]}[redacted]`;
    return redactSecrets(a.replace(/((?:key|token|secret|password|authorization)[^=]*=)\S+/gi, '$1[redacted]'));
  });
}

/** The arguments the mask hides, as secret values: a message that echoes one (commander's `unknown option '-k…'`) is redacted too. */
export function argvSecretValues(args: string[]): string[] {
  const masked = redactArgv(args);
  return args.filter((a, i) => masked[i] !== a);
}
