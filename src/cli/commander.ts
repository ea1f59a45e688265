/**
 * commander, as every command of the CLI uses it. scripts/bundle.mjs joins it into dist/ (no
 * CommonJS loader, resolution or doc comments to read at start-up) and hands its
 * `require('node:child_process')` an object that loads the real module on its first property read:
 * commander requires child_process at its top only to spawn stand-alone executable subcommands,
 * which this CLI never declares, and loading it (with net, dgram and the socket plumbing it pulls
 * in) was ~30 ms of every start-up. Under the tests (sources, not dist/) it loads as it is.
 */
export { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
