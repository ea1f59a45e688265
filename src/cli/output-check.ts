import { mkdir, stat, unlink, writeFile, access, constants } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UserError } from '../core/errors.js';
import type { PlannedOutput } from './reporters.js';

/**
 * Proves, before any target runs, that every place the run will write can be written: the folder
 * exists or can be made, and a probe file can be created and removed in it. A folder that is a
 * file, read-only or full, or a report path that is a directory, is bad input (exit 2) now, not an
 * internal error after every trial has run.
 */
export async function checkOutputs(outputs: PlannedOutput[], configFile: string | null): Promise<void> {
  const seen = new Set<string>();
  for (const out of outputs) {
    const key = `${out.kind}:${out.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where = out.field === 'outputDir' ? { ...(configFile ? { file: configFile } : {}), field: 'outputDir' } : { field: out.field };
    const problem = out.kind === 'dir' ? await dirProblem(out.path) : await fileProblem(out.path);
    if (problem) throw new UserError(`cannot write ${out.path}: ${problem}`, where);
  }
}

async function fileProblem(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return 'it is a directory';
  if (
    info &&
    (await access(path, constants.W_OK).then(
      () => false,
      () => true,
    ))
  )
    return 'the file is read-only';
  return dirProblem(dirname(path));
}

async function dirProblem(dir: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    return describe(err, dir);
  }
  const probe = join(dir, `.agent-evals-probe-${process.pid}`);
  try {
    await writeFile(probe, 'probe');
  } catch (err) {
    return describe(err, dir);
  } finally {
    await unlink(probe).catch(() => {});
  }
  return undefined;
}

function describe(err: unknown, dir: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR' || code === 'EEXIST') return `${dir} (or a folder above it) is a file, not a folder`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `${dir} is not writable (${code})`;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `no space left in ${dir} (${code})`;
  return `${(err as Error).message}`;
}
