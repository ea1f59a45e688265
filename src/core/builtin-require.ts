import { createRequire } from 'node:module';

/**
 * Node's built-in modules as their CommonJS exports, for the few ES modules that load before the
 * start chunk (cli/code-cache.ts, suite/cache-files.ts). An ES `import` of a built-in makes Node build
 * its ES facade, which reads every export once: crypto's `webcrypto` getter loads WebCrypto and fs's
 * `ReadStream` loads the streams, ~8 ms of a `list` that uses neither. A `require` reads nothing.
 */
export const requireBuiltin = createRequire(import.meta.url);
