import { z } from 'zod';
import { displayURL } from '../core/display-url.js';

/**
 * A `proxy` setting (config, model spec, HTTP target): a proxy URL (http or https, host and port,
 * credentials as `user:pass@`), or `false` to connect directly whatever the environment says. Unset,
 * the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY (or their lower-case forms) decide.
 */
export const ProxySettingSchema = z.union([z.url({ protocol: /^https?$/, error: 'expected a proxy URL (http or https, host and port) or false' }), z.literal(false)]);
export type ProxySetting = z.infer<typeof ProxySettingSchema>;

/** How a request leaves: through the environment's proxy variables, through one proxy, or directly. */
export type ProxyRoute = { kind: 'env'; httpProxy?: string; httpsProxy?: string; noProxy?: string } | { kind: 'proxy'; url: string } | { kind: 'direct' };

/** The proxy variables of `env`, read as undici's environment proxy agent reads them (lower case first; empty is unset). */
function envProxies(env: NodeJS.ProcessEnv) {
  const pick = (lower: string, upper: string) => {
    const name = env[lower] !== undefined ? lower : upper;
    const value = env[name];
    return value ? { name, value } : undefined;
  };
  return { http: pick('http_proxy', 'HTTP_PROXY'), https: pick('https_proxy', 'HTTPS_PROXY'), no: pick('no_proxy', 'NO_PROXY') };
}

/** The route of a setting: its own (a URL, or false for direct), else what `env` says. */
export function proxyRoute(setting: ProxySetting | undefined, env: NodeJS.ProcessEnv): ProxyRoute {
  if (setting === false) return { kind: 'direct' };
  if (setting !== undefined) return { kind: 'proxy', url: setting };
  const { http, https, no } = envProxies(env);
  if (!http && !https) return { kind: 'direct' };
  return { kind: 'env', ...(http ? { httpProxy: http.value } : {}), ...(https ? { httpsProxy: https.value } : {}), ...(no ? { noProxy: no.value } : {}) };
}

/** Where a setting was written, named in `doctor`: `the config`, `the model spec`, `targets.x`. */
export interface ProxyChoice {
  setting: ProxySetting | undefined;
  from: string;
}

/** What `doctor` says of one endpoint: the proxy its requests go through (shown without credentials), or none, and why. */
export interface ProxyFacts {
  /** The proxy URL as shown (no user info, no query); null: direct. */
  proxy: string | null;
  because: string;
}

/**
 * The route a request to `url` takes, in words. The first choice that sets `proxy` wins (the model
 * spec's, then the config's); with none, the environment's variables, with NO_PROXY matched as
 * undici matches it.
 */
export function proxyFacts(url: string, choices: readonly ProxyChoice[], env: NodeJS.ProcessEnv): ProxyFacts {
  const chosen = choices.find((c) => c.setting !== undefined);
  if (chosen?.setting === false) return { proxy: null, because: `proxy: false in ${chosen.from}` };
  if (chosen?.setting !== undefined) return { proxy: displayURL(chosen.setting), because: `proxy in ${chosen.from}` };
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { proxy: null, because: 'no valid endpoint URL' };
  }
  const vars = envProxies(env);
  const picked = target.protocol === 'https:' ? (vars.https ?? vars.http) : vars.http;
  if (!picked) return { proxy: null, because: target.protocol === 'https:' ? 'neither HTTPS_PROXY nor HTTP_PROXY is set' : 'HTTP_PROXY is not set' };
  if (vars.no && noProxyCovers(vars.no.value, target)) return { proxy: null, because: `${vars.no.name} covers ${target.host}` };
  return { proxy: displayURL(picked.value), because: `from ${picked.name}` };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether a NO_PROXY list covers `url`: `*`, or an entry (`host`, `.host`, `*.host`, each with an
 * optional `:port`) equal to the host or a parent domain of it. The rules of undici's
 * EnvHttpProxyAgent, which routes the requests: doctor must say what it does.
 */
export function noProxyCovers(list: string, url: URL): boolean {
  if (list === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  return list
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      const parsed = /^(.+):(\d+)$/.exec(entry);
      const host = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
      const entryPort = parsed ? Number.parseInt(parsed[2]!, 10) : 0;
      if (entryPort && entryPort !== port) return false;
      return hostname === host || hostname.endsWith(`.${host}`);
    });
}
