/**
 * `otel: true` on AI SDK 7: the SDK emits spans only through a registered telemetry integration
 * (`registerTelemetry()` pushes it onto `globalThis.AI_SDK_TELEMETRY_INTEGRATIONS`; AI SDK 6 traced
 * on `experimental_telemetry` alone). Read from ai 7.0.173 and @ai-sdk/otel 1.0.173. Both packages
 * are resolved from the user's project, never from agent-evals' own dependencies.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../core/errors.js';

export const AI_SDK_OTEL_INSTALL = 'npm i -D @ai-sdk/otel';

type IntegrationClass = new (options?: { usage?: boolean }) => object;

/** The registry AI SDK 7 reads on every call: a plain global array, so any copy of `ai` sees it. */
const global = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };
const registered = (): readonly unknown[] => global.AI_SDK_TELEMETRY_INTEGRATIONS ?? [];

/** The project's `ai` (from the config file's folder, else the working directory) and a require from where it was found. */
function projectAI(rootDir: string): { version: string; require: NodeJS.Require } | undefined {
  const bases = [...new Set([resolve(rootDir), process.cwd()])];
  for (const base of bases) {
    const require = createRequire(join(base, 'package.json'));
    try {
      const { version } = require('ai/package.json') as { version: string };
      return { version, require };
    } catch {
      // not installed there: the next folder
    }
  }
  return undefined;
}

/** While trials run, @ai-sdk/otel's integration is registered unless an OpenTelemetry one is. */
export interface AISDKTelemetry {
  /** Registers ours when no OpenTelemetry integration is registered; the returned function removes it after the last lease. */
  lease(): () => void;
}

let leases = 0;
let ours: object | undefined;
/** The registry did not exist before ours was added: it goes with it. */
let createdRegistry = false;

/**
 * What `otel: true` needs from the project's AI SDK: nothing below AI SDK 7 (or without `ai`);
 * on 7, `@ai-sdk/otel`'s integration, registered by agent-evals while its trials run unless the
 * process registered an OpenTelemetry integration itself. A project on AI SDK 7 with neither
 * `@ai-sdk/otel` nor any integration registered stops here, before any trial.
 */
export async function aiSDKTelemetry(rootDir: string, where: { file?: string; field: string }): Promise<AISDKTelemetry | undefined> {
  const ai = projectAI(rootDir);
  if (!ai || Number(ai.version.split('.')[0]) < 7) return undefined;
  let entry: string;
  try {
    entry = ai.require.resolve('@ai-sdk/otel');
  } catch {
    // An integration of the user's own may emit spans; the trial check names a trace without a model call.
    if (registered().length > 0) return undefined;
    throw new UserError(
      `otel: true: this project's ai ${ai.version} emits no spans unless a telemetry integration is registered, and @ai-sdk/otel is not installed; run: ${AI_SDK_OTEL_INSTALL} (agent-evals then registers its OpenTelemetry integration while trials run)`,
      where,
    );
  }
  const otel = (await import(pathToFileURL(entry).href)) as { OpenTelemetry: IntegrationClass; LegacyOpenTelemetry?: IntegrationClass };
  const isOpenTelemetry = (x: unknown): boolean =>
    x instanceof otel.OpenTelemetry ||
    (otel.LegacyOpenTelemetry !== undefined && x instanceof otel.LegacyOpenTelemetry) ||
    // another copy of @ai-sdk/otel, or an integration built on it
    /OpenTelemetry/.test(String((x as { constructor?: { name?: unknown } } | null)?.constructor?.name));
  return {
    lease() {
      if (leases++ === 0 && !registered().some(isOpenTelemetry)) {
        // `usage: true` adds the reasoning tokens, which the GenAI conventions have no attribute for.
        ours = new otel.OpenTelemetry({ usage: true });
        createdRegistry = global.AI_SDK_TELEMETRY_INTEGRATIONS === undefined;
        (global.AI_SDK_TELEMETRY_INTEGRATIONS ??= []).push(ours);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--leases > 0 || ours === undefined) return;
        const list = global.AI_SDK_TELEMETRY_INTEGRATIONS ?? [];
        const at = list.indexOf(ours);
        if (at !== -1) list.splice(at, 1);
        if (createdRegistry && list.length === 0) delete global.AI_SDK_TELEMETRY_INTEGRATIONS;
        ours = undefined;
      };
    },
  };
}
