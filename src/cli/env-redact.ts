import { REDACTED, SecretRedactor, envSecretValues } from '../providers/secret-redactor.js';
import { maskShapes } from '../providers/secret-shapes.js';
import { argvSecretValues } from './redact-argv.js';

/**
 * Messages that end the CLI (or a watch re-run), commander's own included, never carry a secret
 * value from the environment nor a token of a known shape (one typed on the command line: a path
 * or an option value echoed back in an error), nor an argument the argv mask hides.
 */
export const redactEnv = (text: string, argv: string[] = []) => maskShapes(new SecretRedactor([...envSecretValues(process.env), ...argvSecretValues(argv)]).redact(text), REDACTED);
