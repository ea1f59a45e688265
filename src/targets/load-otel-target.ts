import { UserError } from '../core/errors.js';

/**
 * What `otel: true` needs: optional peer dependencies of agent-evals (package.json), so a project
 * that never traces does not install them. The exact command is named when they are missing.
 */
export const OTEL_PACKAGES = ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks'] as const;
export const OTEL_INSTALL = `npm i -D ${OTEL_PACKAGES.join(' ')}`;

/** True when the error is Node failing to find one of the OpenTelemetry packages. */
function isMissingOtel(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && OTEL_PACKAGES.some((p) => String((err as Error).message).includes(`'${p}`));
}

/** The otel target module, loaded on first use; a missing OpenTelemetry install is a user error naming what to install. */
export async function loadOtelTarget(where: { file?: string; field: string }): Promise<typeof import('./otel-target.js')> {
  try {
    return await import('./otel-target.js');
  } catch (err) {
    if (!isMissingOtel(err)) throw err;
    throw new UserError(`otel: true needs the OpenTelemetry packages, which are not installed; run: ${OTEL_INSTALL}`, where);
  }
}
