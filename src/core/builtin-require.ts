import { createRequire } from 'node:module';

/**
 * Node's built-in modules as their CommonJS exports. For the few ES modules that load before the
 * start chunk (cli/code-cache.ts, suite/cache-files.ts): an ES `import` of a built-in makes Node build
 * its ES facade, which reads every export once (crypto's `webcrypto` getter loads WebCrypto, fs's
 * `ReadStream` the streams: ~8 ms of a `list` that uses neither); a `require` reads nothing. And for a
 * built-in only some paths use (worker_threads for a watchdog or a regex worker): required on first
 * use, where the bundle would otherwise load it with the chunk.
 */
export const requireBuiltin = createRequire(import.meta.url);
