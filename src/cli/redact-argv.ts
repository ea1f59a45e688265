import { redactSecrets } from '../providers/errors.js';

/**
 * Arguments as the results record them: `--api-key=…`-style values are masked, and tokens are
 * redacted by the same rule as provider errors (API keys, Bearer credentials).
 */
export function redactArgv(args: string[]): string[] {
  return args.map((a) => redactSecrets(a.replace(/((?:key|token|secret|password|authorization)[^=]*=)\S+/gi, '$1[redacted]')));
}
