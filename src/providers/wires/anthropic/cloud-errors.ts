/**
 * Errors of Claude on a cloud platform (Bedrock, Vertex AI), mapped as Anthropic's are, but naming the
 * platform's credentials where Anthropic's name its key, and its credential chain's failure (which the
 * platform SDK reports as a connection error, retried) as what to set.
 */
import { ProviderError } from '../../../core/errors.js';
import { redactSecrets, toProviderError, type ErrorContext } from '../../errors.js';

export interface CloudCredentials {
  /** What a user sets (the registry's `credentials`). */
  hint: string;
  /** How the platform SDK's message starts when its credential chain found nothing usable. */
  chainFailure: string;
  /** The credential values in the environment: kept out of every message. */
  secrets: readonly string[];
}

export function cloudErrorMapper(credentials: CloudCredentials): (err: unknown, ctx: ErrorContext) => Error {
  return (err, ctx) => {
    const context: ErrorContext = { ...ctx, keyEnv: credentials.hint, secrets: [...ctx.secrets, ...credentials.secrets] };
    const message = err instanceof Error ? err.message : '';
    if (!message.startsWith(credentials.chainFailure)) return toProviderError(err, context);
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error ? ` (${redactSecrets(cause.message, context.secrets)})` : '';
    return new ProviderError(ctx.provider, 'auth', `no usable credentials for ${ctx.provider}${why}: set ${credentials.hint}`);
  };
}

/** The non-empty values of `names` in `env`. */
export function envValues(env: NodeJS.ProcessEnv, names: readonly string[]): string[] {
  return names.map((n) => env[n]?.trim()).filter((v): v is string => Boolean(v));
}
