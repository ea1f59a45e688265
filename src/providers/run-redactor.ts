import { SECRET_ENV_NAME, SecretRedactor, envSecretValues } from './secret-redactor.js';
import { shapedSecrets } from './secret-shapes.js';
import { pushAll } from '../core/push-all.js';
import { PROVIDERS } from './registry.js';

/** What of a run's settings names its secrets: the targets, the judges and the environment (runner/loop/settings.ts). */
export interface SecretSources {
  targets: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  judging: { judge?: unknown; judges: Record<string, unknown> };
  /** The config's `proxy`: a URL that may carry a password. */
  proxy?: unknown;
  /** The config's MCP servers: their headers and secret-named env values, as a target's. */
  mcpServers?: Readonly<Record<string, unknown>>;
}

/** The environment's proxy variables: their URLs may carry a password (`user:pass@` before the host). */
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

const MAX_DEPTH = 5;

/**
 * The run's one redactor: the values of the provider keys, of every `apiKeyEnv` variable its
 * targets and judges name, of every configured header, and of every environment variable named
 * like a secret (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`), with the credentials inside each
 * (the token after `Bearer`, …: see secretParts), and shaped tokens anywhere in the config, the
 * config's `proxy` and the environment's proxy variables (a proxy URL's password).
 */
export function runRedactor(settings: SecretSources): SecretRedactor {
  // Every provider's key variable, whatever it is called (AWS_BEARER_TOKEN_BEDROCK does not end in _TOKEN).
  const names = new Set<string>(PROVIDERS.map((p) => p.keyEnv));
  const values: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > MAX_DEPTH) return;
    const o = node as Record<string, unknown>;
    if (typeof o.apiKeyEnv === 'string') names.add(o.apiKeyEnv);
    if (isStringRecord(o.headers)) pushAll(values, Object.values(o.headers));
    // A command target's own variables: those named like secrets are secrets too.
    if (isStringRecord(o.env)) for (const [k, v] of Object.entries(o.env)) if (SECRET_ENV_NAME.test(k)) values.push(v);
    for (const [k, v] of Object.entries(o)) {
      // A URL with a password, a JWT or a key of a known shape anywhere in the config is a secret too.
      if (typeof v === 'string') pushAll(values, shapedSecrets(v));
      else if (k !== 'headers') visit(v, depth + 1);
    }
  };
  const { targets, judging, env } = settings;
  for (const node of [...Object.values(targets), ...Object.values(settings.mcpServers ?? {}), judging.judge, ...Object.values(judging.judges)]) visit(node, 0);
  for (const url of [settings.proxy, ...PROXY_VARS.map((name) => env[name])]) if (typeof url === 'string') pushAll(values, shapedSecrets(url));
  return new SecretRedactor([...envSecretValues(env, names), ...values]);
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');
}
