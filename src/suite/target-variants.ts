import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ProviderConfigError, UserError } from '../core/errors.js';
import { variantName, type MatrixValues, type TargetVariant } from '../core/matrix.js';
import { checkedReasoningEffort, formatModelSpec, parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import type { ProviderId } from '../providers/registry.js';
import { providersKnowing, specCapabilities } from '../providers/wires.js';
import type { TargetConfig } from '../targets/config-schema.js';
import type { TargetFunction } from '../targets/function-target.js';
import type { ModelTargetSchema } from '../targets/target-schemas.js';

type ModelTargetConfig = z.infer<typeof ModelTargetSchema>;

/** Where a matrix was given, for its errors: the command line (`--matrix`) or an eval file's `matrix:`. */
export interface MatrixWhere {
  file?: string | undefined;
  line?: number | undefined;
}

/** A settings variant of a target: the name it runs under, what results record of it, and the target config it builds. */
export interface PlannedVariant {
  target: string;
  variant: TargetVariant;
  spec: TargetConfig;
}

/** Fields of a model spec that describe its model, not the connection: dropped when a variant changes the model. */
const MODEL_FACTS = ['capabilities', 'api'] as const;
/** Fields a variant on another provider keeps of the target's spec (the connection fields belong to the old provider). */
const PORTABLE = ['temperature', 'maxTokens', 'maxRetries', 'timeoutMs', 'reasoningEffort'] as const;

/**
 * The settings variants of a run's model-agent targets (`model`, `effort`, `instructions` of a
 * matrix), each made and checked once: a bare model id the capability table cannot place, an effort
 * the variant's model does not take, an instructions file that cannot be read or a target that is no
 * model agent is exit 2 before any target runs.
 */
export class TargetVariants {
  private readonly made = new Map<string, PlannedVariant>();

  constructor(
    private readonly targets: Readonly<Record<string, TargetConfig>>,
    /** Where `@file` instructions are relative to (the config's folder). */
    private readonly rootDir: string,
  ) {}

  /** The variant of `target` with the settings of `values` (its other dimensions ignored). */
  of(target: string | TargetFunction, values: MatrixValues, where: MatrixWhere): PlannedVariant {
    const base = typeof target === 'string' ? target : target.name || '(inline function)';
    const name = variantName(base, values);
    const key = `${typeof target === 'string' ? 'config' : 'inline'}\0${name}`;
    let v = this.made.get(key);
    if (!v) this.made.set(key, (v = this.make(target, base, name, values, where)));
    return v;
  }

  private make(target: string | TargetFunction, base: string, name: string, values: MatrixValues, where: MatrixWhere): PlannedVariant {
    const fail = (message: string): never => {
      throw new UserError(`${where.file ? 'matrix' : '--matrix'}: ${message}`, { ...(where.file ? { file: where.file } : {}), ...(where.line ? { line: where.line } : {}) });
    };
    const spec = typeof target === 'string' ? this.targets[target] : undefined;
    if (!spec || typeof spec !== 'object' || !('model' in spec)) {
      const kind = typeof target === 'string' ? (spec ? 'is not a model-agent target' : 'is not configured') : 'is an inline function target';
      return fail(`target "${base}" ${kind}; model, effort and instructions vary a model-agent target ({ model, instructions, tools })`);
    }
    let out: ModelTargetConfig = { ...spec };
    const variant: TargetVariant = { name, target: base };
    if (values.model !== undefined || values.effort !== undefined) {
      const model = variantModelSpec(spec.model, values.model, values.effort, (m) => fail(`target "${base}": ${m}`));
      try {
        checkedReasoningEffort(model, specCapabilities(model));
      } catch (err) {
        if (err instanceof ProviderConfigError) return fail(`variant ${name}: ${err.message}`);
        throw err;
      }
      out = { ...out, model };
      variant.model = formatModelSpec(model);
      if (model.reasoningEffort !== undefined) variant.effort = model.reasoningEffort;
    }
    if (values.instructions !== undefined) {
      out = withInstructions(out, values.instructions, this.rootDir, fail);
      variant.instructions = values.instructions;
    }
    return { target: name, variant, spec: out };
  }
}

/** The target's model spec with the variant's model and effort: another model keeps the connection, another provider only the portable fields. */
function variantModelSpec(given: ModelTargetConfig['model'], modelValue: string | undefined, effort: string | undefined, fail: (message: string) => never): ModelSpec {
  let own: ModelSpec | undefined;
  try {
    own = parseModelSpec(given);
  } catch {
    // A judge's name: only a variant that names its model can run.
    if (modelValue === undefined) fail('its model is not a provider:model spec, so its effort cannot vary; give --matrix model=provider:model too');
  }
  let spec: ModelSpec;
  if (modelValue === undefined) spec = { ...own! };
  else {
    const { provider, model } = variantModel(modelValue, fail);
    if (own && own.provider === provider) {
      spec = { ...own, model };
      for (const k of MODEL_FACTS) delete spec[k];
    } else {
      spec = { provider, model };
      for (const k of PORTABLE) if (own?.[k] !== undefined) Object.assign(spec, { [k]: own[k] });
    }
  }
  if (effort !== undefined) spec.reasoningEffort = effort;
  return spec;
}

/** `provider:model`, or a bare model id placed by the capability table (the one wire with a row for its family). */
function variantModel(value: string, fail: (message: string) => never): { provider: ProviderId; model: string } {
  if (value.includes(':')) {
    try {
      return parseModelSpec(value);
    } catch (err) {
      return fail(`model "${value}": ${(err as Error).message}`);
    }
  }
  const known = providersKnowing(value);
  if (known.length === 1) return { provider: known[0] as ProviderId, model: value };
  return fail(
    known.length
      ? `model "${value}" is in the capability table of ${known.join(' and ')}: write provider:model to say which`
      : `model "${value}": the capability table cannot tell which provider serves it; write provider:model (e.g. openai:${value})`,
  );
}

/** `@path`: the instructions file (relative to the config's folder, read when the target is built); any other value is the instructions text. */
function withInstructions(spec: ModelTargetConfig, value: string, rootDir: string, fail: (message: string) => never): ModelTargetConfig {
  const { instructions: _text, instructionsFile: _file, ...rest } = spec;
  if (!value.startsWith('@')) return { ...rest, instructions: value };
  const path = value.slice(1);
  const file = resolve(rootDir, path);
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    // Missing or unreadable: said below.
  }
  if (!path || !isFile) fail(`cannot read instructions file ${path || '(none given after @)'} (resolved to ${file})`);
  return { ...rest, instructionsFile: path };
}

/** A case's target config: its variant's own when it runs one, else the configured target of its name. */
export function caseTargetSpec(c: { target: string | TargetFunction; variant?: { spec: TargetConfig } | undefined }, targets: Readonly<Record<string, TargetConfig>>): TargetConfig | undefined {
  if (c.variant) return c.variant.spec;
  return typeof c.target === 'string' ? targets[c.target] : undefined;
}
