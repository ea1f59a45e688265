/**
 * The wire formats the project speaks, one descriptor each (wire-descriptor.ts says what a wire
 * provides). What differs by wire is derived from here: which provider class and SDK a model spec
 * gets, its batch API, its embedder, its defaults, how a raw body is read. Importing this loads no
 * SDK (each descriptor loads its own on first use).
 */
import type { ModelCapabilities, Wire } from './capabilities.js';
import { ProviderConfigError } from '../core/errors.js';
import { specCapabilitiesOn, type ModelSpec } from './model-spec.js';
import { familyRow } from './capability-lookup.js';
import { wireOf, type ProviderId } from './registry.js';
import type { WireDescriptor } from './wire-descriptor.js';
import { ANTHROPIC_WIRE } from './wires/anthropic/index.js';
import { OPENAI_WIRE } from './wires/openai/index.js';

const WIRES = new Map<Wire, WireDescriptor>([OPENAI_WIRE, ANTHROPIC_WIRE].map((w) => [w.id, w]));

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
 * What the spec's model accepts: its family's row in the table (of its provider's wire), else the
 * wire's default, under the provider's quirks, under the spec's own overrides.
 */
export function specCapabilities(spec: Pick<ModelSpec, 'provider' | 'model' | 'capabilities'>): ModelCapabilities {
  return specCapabilitiesOn(providerWire(spec.provider), spec);
}

/**
 * The providers whose wire's table rows know `model`'s family (a bare model id in `--matrix model=`):
 * each wire's home provider, once.
 */
export function providersKnowing(model: string): string[] {
  return [...new Set([...WIRES.values()].filter((w) => familyRow(w.id, model) !== undefined).map((w) => w.homeProvider))];
}
