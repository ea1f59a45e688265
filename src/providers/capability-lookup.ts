/** A model's capabilities: its family's row in model-table.ts, else its wire's default, then the overrides. */
import type { CapabilityOverrides, ModelCapabilities, ModelFamilyRow, Wire, WireTable } from './capabilities.js';
import { modelFamily } from './model-family.js';
import { MODEL_TABLE } from './model-table.js';

/**
 * The capabilities of `model` on `wire`: its family's row (exact family first, then the longest
 * prefix row), else the wire's default; `overrides` (a provider preset's quirks, then the model
 * spec's own `capabilities`) win field by field.
 */
export function capabilitiesOf(wire: WireTable, model: string, ...overrides: (CapabilityOverrides | undefined)[]): ModelCapabilities {
  const row = tableRow(wire, model);
  const base = row?.capabilities ?? wire.defaultCapabilities;
  return Object.assign({}, base, ...overrides.filter((o) => o !== undefined)) as ModelCapabilities;
}

/**
 * The wire and id under which a model of `wire` has its rows in the capability and price tables: its
 * own, or, for a wire serving another's models (`rowsOf`: Claude on Bedrock), that wire's and its id there.
 */
export function tableKey(wire: WireTable, model: string): { wire: Wire; model: string } {
  return wire.rowsOf ? { wire: wire.rowsOf.wire, model: wire.rowsOf.modelId(model) } : { wire: wire.id, model };
}

/** The row of a model of `wire`: its own, or the row of its id on the wire whose models it serves (`rowsOf`). */
export function tableRow(wire: WireTable, model: string): ModelFamilyRow | undefined {
  const key = tableKey(wire, model);
  return familyRow(key.wire, key.model);
}

/** The table row for a model, or undefined when the table does not know its family. */
export function familyRow(wire: Wire, model: string): ModelFamilyRow | undefined {
  const family = modelFamily(model);
  let best: ModelFamilyRow | undefined;
  for (const row of MODEL_TABLE) {
    if (row.wire !== wire) continue;
    if (row.family === family) return row;
    const continues = row.prefix && family.startsWith(row.family) && /^[-.]/.test(family.slice(row.family.length));
    if (continues && (!best || row.family.length > best.family.length)) best = row;
  }
  return best;
}
