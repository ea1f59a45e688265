import type { Dispatcher } from 'undici';
import { watchedBody, withBody } from './body-limit.js';
import { proxyRoute, type ProxyRoute, type ProxySetting } from './proxy.js';
import type { FetchLike } from './fetch-like.js';

type Undici = typeof import('undici');

/** undici, loaded with the first request: a command that calls nothing never loads the HTTP stack. */
let undici: Undici | undefined;
let loading: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> => (loading ??= import('undici').then((m) => (undici = m)));

/**
 * One keep-alive dispatcher per route, shared by every provider and HTTP target of the process: eval
 * runs make thousands of small calls to a few hosts. Few routes ever exist (the environment's, a
 * configured proxy, direct), so they are kept for the process.
 */
const dispatchers = new Map<string, Dispatcher>();

function dispatcherFor(lib: Undici, route: ProxyRoute): Dispatcher {
  const key = JSON.stringify(route);
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) dispatchers.set(key, (dispatcher = makeDispatcher(lib, route)));
  return dispatcher;
}

function makeDispatcher({ Agent, EnvHttpProxyAgent, ProxyAgent }: Undici, route: ProxyRoute): Dispatcher {
  if (route.kind === 'direct') return new Agent();
  if (route.kind === 'proxy') return new ProxyAgent(route.url);
  // Every value given (unset as ''): the run's environment decides, not whatever process.env holds later.
  return new EnvHttpProxyAgent({ httpProxy: route.httpProxy ?? '', httpsProxy: route.httpsProxy ?? '', noProxy: route.noProxy ?? '' });
}

export interface TransportOptions {
  /** The `proxy` setting that applies (model spec's, target's or config's); unset: the environment's. */
  proxy?: ProxySetting | undefined;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read. */
  env: NodeJS.ProcessEnv;
  /** Largest response body: past it the body fails with a ResponseTooLargeError (a body error: the SDKs report it, no retry). */
  maxBytes?: number;
  /** A URL whose 200 body is streamed uncapped (a batch's results file: its reader bounds each line). */
  streamed?: (url: URL) => boolean;
}

/**
 * The standard `fetch` (undici's) that providers hand their SDK clients and HTTP targets call, over
 * the dispatcher of the route `proxy` and `env` choose.
 */
export function transportFetch(options: TransportOptions): FetchLike {
  const route = proxyRoute(options.proxy, options.env);
  const { maxBytes, streamed } = options;
  let dispatcher: Dispatcher | undefined;
  return async (input, init) => {
    const lib = undici ?? (await loadUndici());
    dispatcher ??= dispatcherFor(lib, route);
    const [url, requestInit] = asParts(input, init);
    // A dispatcher the caller gave (a client's `fetchOptions: { dispatcher }`: their own proxy or TLS) is theirs to keep.
    const own = (init as { dispatcher?: Dispatcher } | undefined)?.dispatcher;
    // Only the request is cast: undici's types know its own FormData, Headers and Dispatcher classes, not
    // Node's built-in ones the DOM RequestInit names (asParts sends a FormData as a stream). Its Response is a Response.
    const res: Response = await lib.fetch(url, { ...requestInit, dispatcher: own ?? dispatcher } as Parameters<Undici['fetch']>[1]);
    if (maxBytes === undefined || !res.body) return res;
    if (streamed && res.status === 200 && streamed(new URL(res.url))) return res;
    return withBody(res, watchedBody(res.body, { maxBytes }));
  };
}

/**
 * The request as undici's fetch takes it. It knows its own Request and FormData classes only, not
 * Node's built-in ones the SDKs and users hold: a Request is sent as its parts, and a FormData (a
 * batch's file upload) as the multipart stream and content type the built-in encoder makes of it.
 */
function asParts(input: Parameters<FetchLike>[0], init: RequestInit | undefined): [string | URL, RequestInit | undefined] {
  if (input instanceof Request) return asParts(input.url, { method: input.method, headers: input.headers, body: input.body, signal: input.signal, duplex: 'half', ...init });
  if (!(init?.body instanceof FormData)) return [input, init];
  const encoded = new Response(init.body);
  const headers = new Headers(init.headers);
  headers.set('content-type', encoded.headers.get('content-type')!);
  return [input, { ...init, headers, body: encoded.body, duplex: 'half' }];
}
