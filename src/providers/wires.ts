/**
 * The wire formats the project speaks, one descriptor each (wire-descriptor.ts says what a wire
 * provides). What differs by wire is derived from here: which provider class and SDK a model spec
 * gets, its batch API, its embedder, its defaults, how a raw body is read. Importing this loads no
 * SDK (each descriptor loads its own on first use).
 */
import type { ModelCapabilities, ModelFamilyRow, Wire } from './capabilities.js';
import { familyRow, tableKey, tableRow } from './capability-lookup.js';
import { ProviderConfigError } from '../core/errors.js';
import { formatModelSpec, specCapabilitiesOn, type ModelSpec } from './model-spec.js';
import { wireOf, type ProviderId } from './registry.js';
import type { SpecUse, WireDescriptor } from './wire-descriptor.js';
import { ANTHROPIC_WIRE } from './wires/anthropic/index.js';
import { BEDROCK_WIRE } from './wires/bedrock/index.js';
import { OPENAI_WIRE } from './wires/openai/index.js';
import { GEMINI_WIRE } from './wires/gemini/index.js';
import { VERTEX_WIRE } from './wires/vertex/index.js';

const WIRES = new Map<Wire, WireDescriptor>([OPENAI_WIRE, ANTHROPIC_WIRE, GEMINI_WIRE, BEDROCK_WIRE, VERTEX_WIRE].map((w) => [w.id, w]));

/**
 * Adds a wire (a test's own, or one loaded beside the built-in ones); returns what takes it away
 * again. A wire id already taken is refused.
 */
export function registerWire(wire: WireDescriptor): () => void {
  if (WIRES.has(wire.id)) throw new ProviderConfigError(`wire "${wire.id}" is already registered`);
  WIRES.set(wire.id, wire);
  return () => void WIRES.delete(wire.id);
}

export function wireDescriptor(id: Wire): WireDescriptor {
  const wire = WIRES.get(id);
  if (!wire) throw new ProviderConfigError(`unknown wire "${id}" (known: ${[...WIRES.keys()].join(', ')})`);
  return wire;
}

/** The wire a provider speaks. */
export function providerWire(provider: ProviderId): WireDescriptor {
  return wireDescriptor(wireOf(provider));
}

/**
 * The wire one model spec's calls go over: its provider's, unless that wire sends this spec to
 * another (wire-descriptor.ts `wireFor`: the OpenAI Responses API for some OpenAI models).
 */
export function specWire(spec: ModelSpec): WireDescriptor {
  const wire = providerWire(spec.provider);
  return wire.wireFor?.(spec, specCapabilitiesOn(wire, spec)) ?? wire;
}

/**
 * What the spec's model accepts: its family's row in the table (of its provider's wire), else the
 * wire's default, under the provider's quirks, under the spec's own overrides.
 */
export function specCapabilities(spec: Pick<ModelSpec, 'provider' | 'model' | 'capabilities'>): ModelCapabilities {
  return specCapabilitiesOn(providerWire(spec.provider), spec);
}

/** The reasoning effort the spec's requests go out with when used as `use` says (undefined: the provider's default). */
export function sentEffort(spec: ModelSpec, use: SpecUse): string | undefined {
  const wire = specWire(spec);
  return wire.sentEffort ? wire.sentEffort(spec, specCapabilitiesOn(wire, spec), use) : spec.reasoningEffort;
}

/**
 * What the API refuses of the spec used as `use` says, by the capability table, as one sentence
 * naming the model, the wire and the setting; undefined when nothing is refused.
 */
export function specRefusal(spec: ModelSpec, use: SpecUse): string | undefined {
  const wire = specWire(spec);
  const refused = wire.refusal?.(spec, specCapabilitiesOn(wire, spec), use);
  return refused === undefined ? undefined : `model ${formatModelSpec(spec)} on ${wire.label}: ${refused}`;
}

/** The capability table's row for the spec's model (a wire serving another's models reads that wire's rows). */
export function specFamilyRow(spec: Pick<ModelSpec, 'provider' | 'model'>): ModelFamilyRow | undefined {
  return tableRow(providerWire(spec.provider), spec.model);
}

/** The wire and id under which a provider's model has its rows in the capability and price tables (capability-lookup.ts `tableKey`). */
export function tableModelOf(provider: ProviderId, model: string): { wire: Wire; model: string } {
  return tableKey(providerWire(provider), model);
}

/**
 * The providers whose wire's table rows know `model`'s family (a bare model id in `--matrix model=`):
 * each wire's home provider, once.
 */
export function providersKnowing(model: string): string[] {
  return [...new Set([...WIRES.values()].filter((w) => familyRow(w.id, model) !== undefined).map((w) => w.homeProvider))];
}
