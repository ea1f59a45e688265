/**
 * Events a spawned process gives the test, instead of a poll on a clock: a file it creates (seen
 * through fs.watch on its folder) tells the test that the process got that far.
 */
import { existsSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Resolves once `path` exists; rejects if `ended` settles first (the process ended without creating
 * it). No deadline of its own: the test's timeout catches a hang.
 */
export function whenFileExists(path: string, ended: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === basename(path) && existsSync(path)) finish(resolve);
    });
    const finish = (fn: () => void) => {
      watcher.close();
      fn();
    };
    const gone = () => finish(() => reject(new Error(`the process ended before it created ${path}`)));
    ended.then(gone, gone);
    // Created before the watch began.
    if (existsSync(path)) finish(resolve);
  });
}
