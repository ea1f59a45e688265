import { UserError, UserErrors } from '../core/errors.js';
import { formatPath } from './zod-issues.js';

/** Problems found at paths of a YAML file (an eval file, a scoring file), each with its line. */
export async function errorsAtLines(text: string, file: string, described: ReadonlyArray<{ path: PropertyKey[]; message: string; atKey?: boolean }>): Promise<UserErrors> {
  // js-yaml loads only for a file with a problem (a warm load loads none of it).
  const { linesOfPaths } = await import('./yaml-path-lines.js');
  const lines = linesOfPaths(
    text,
    described.map((d) => d.path),
    described.map((d) => d.atKey === true),
  );
  return new UserErrors(described.map(({ path, message }, i) => new UserError(message, { file, line: lines[i], field: formatPath(path) || undefined })));
}
