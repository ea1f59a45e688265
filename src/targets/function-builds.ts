import type { z } from 'zod';
import { UserError } from '../core/errors.js';
import type { FunctionTargetSchema } from './target-schemas.js';
import { functionTarget, type FunctionTargetOptions, type TargetFunction } from './function-target.js';
import { loadOtelTarget } from './load-otel-target.js';
import { whereIn, type TargetSettings } from './target-settings.js';
import type { Target } from './types.js';

/** How the run's settings call a function target. */
function callOptions(settings: TargetSettings): FunctionTargetOptions {
  return { ...(settings.dryRun ? { dryRun: true } : {}), ...(settings.warn ? { warn: settings.warn } : {}), env: settings.env, proxy: settings.limiters.proxy };
}

/** A bare function in the config (or given inline by a TS eval file). */
export function buildFunctionTarget(name: string, fn: TargetFunction, settings: TargetSettings): Target {
  return functionTarget(name, fn, callOptions(settings));
}

/** `{ function, otel?, isolate?, maxHeapMb? }`: a plain function target, or one built from its OpenTelemetry spans. */
export async function buildFunctionWithOptions(name: string, spec: z.infer<typeof FunctionTargetSchema>, settings: TargetSettings): Promise<Target> {
  const where = whereIn(settings, name);
  // An isolated target is built by the runner (runner/isolation/isolated-target.ts), which can import the config again.
  if (spec.isolate) throw new UserError('isolate: true is not available here (only a run of the CLI or evaluate() with a config file runs targets in workers)', where(''));
  if (spec.maxHeapMb !== undefined) throw new UserError('maxHeapMb caps the heap of an isolated target: it needs isolate: true', where('.maxHeapMb'));
  if (!spec.otel) return functionTarget(name, spec.function, callOptions(settings));
  // Loaded here only: a run without an otel target never loads OpenTelemetry (an optional peer dependency).
  const { otelTarget } = await loadOtelTarget(where('.otel'));
  return otelTarget(name, spec.function, callOptions(settings), settings.configFile, settings.rootDir);
}
