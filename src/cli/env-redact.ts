import { REDACTED, SecretRedactor, envSecretValues } from '../providers/secret-redactor.js';
import { maskShapes } from '../providers/secret-shapes.js';

/**
 * Messages that end the CLI (or a watch re-run), commander's own included, never carry a secret
 * value from the environment nor a token of a known shape (one typed on the command line: a path
 * or an option value echoed back in an error).
 */
export const redactEnv = (text: string) => maskShapes(new SecretRedactor(envSecretValues(process.env)).redact(text), REDACTED);
