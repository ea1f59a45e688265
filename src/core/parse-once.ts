/**
 * zod's options for a schema applied once or a few times per process (the config, each eval file).
 * On an object schema's first parse zod generates and compiles a specialised parser (its "JIT"),
 * which pays off over thousands of parses; for a handful it cost more than the parses themselves
 * (60 ms of a warm `list` for the config schema alone). Results and errors are the same either way.
 */
export const PARSE_ONCE = { jitless: true } as const;
