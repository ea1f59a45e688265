import Module, { createRequire } from 'node:module';

/**
 * commander, loaded so that its `require('node:child_process')` costs nothing until used. commander
 * requires child_process at its top only to spawn stand-alone executable subcommands, which this CLI
 * never declares; loading child_process (with net, dgram and the socket plumbing it pulls in) was
 * ~30 ms of every start-up. While commander loads, that one require answers an object that loads
 * the real module on its first property read, so commander behaves the same if it ever spawns.
 * Loaded through `require` (commander is CommonJS): the ES wrapper would make Node scan its source
 * for export names first. One copy either way: an ES import of 'commander' elsewhere finds this one
 * in the CommonJS cache.
 */
type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const modules = Module as unknown as { _load: Load };

let childProcess: object | undefined;
const lazyChildProcess = new Proxy(
  {},
  {
    get(_, key) {
      childProcess ??= createRequire(import.meta.url)('node:child_process') as object;
      return Reflect.get(childProcess, key) as unknown;
    },
  },
);

function loadCommander(): typeof import('commander') {
  const load = modules._load;
  modules._load = function (this: unknown, request, parent, isMain) {
    return request === 'node:child_process' || request === 'child_process' ? lazyChildProcess : load.call(this, request, parent, isMain);
  };
  try {
    return createRequire(import.meta.url)('commander') as typeof import('commander');
  } finally {
    modules._load = load;
  }
}

const commander = loadCommander();
export const { Command, CommanderError, InvalidArgumentError, Option } = commander;
export type Command = import('commander').Command;
export type CommanderError = import('commander').CommanderError;
export type InvalidArgumentError = import('commander').InvalidArgumentError;
export type Option = import('commander').Option;
