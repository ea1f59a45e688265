import { SecretRedactor, envSecretValues } from '../providers/secret-redactor.js';

/** Messages that end the CLI (or a watch re-run) never carry a secret value from the environment. */
export const redactEnv = (text: string) => new SecretRedactor(envSecretValues(process.env)).redact(text);
