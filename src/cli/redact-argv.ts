import { redactSecrets } from '../providers/errors.js';

/** An option whose name says its value is a credential (`--api-key`, `--token`, …). */
const SECRET_OPTION = /^--?[\w-]*(key|token|secret|password|authorization)[\w-]*$/i;

/**
 * Arguments as the results record them: `--api-key=…`-style values and the argument after a
 * `--api-key`-style option are masked, and tokens are redacted by the same rule as provider
 * errors (API keys, Bearer credentials, GitHub, AWS and Slack tokens).
 */
export function redactArgv(args: string[]): string[] {
  return args.map((a, i) =>
    i > 0 && SECRET_OPTION.test(args[i - 1]!) && !a.startsWith('-') ? '[redacted]' : redactSecrets(a.replace(/((?:key|token|secret|password|authorization)[^=]*=)\S+/gi, '$1[redacted]')),
  );
}
