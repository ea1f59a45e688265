import { ProviderConfigError } from '../core/errors.js';
import type { BatchApi } from './batch-types.js';
import { providerDescriptor } from './registry.js';
import type { ProviderSettings } from './settings.js';
import { providerWire, specWire } from './wires.js';

/** The batch API of a resolved model spec's provider; its module (and SDK) is loaded only now. */
export async function createBatchApi(settings: ProviderSettings): Promise<BatchApi> {
  const d = providerDescriptor(settings.spec.provider);
  const batchApi = specWire(settings.spec).batchApi;
  if (!d.batch || !batchApi) throw new ProviderConfigError(`${d.id} has no batch API: its judge calls are made live`);
  return batchApi(settings);
}

/** Whether `--judge-batch` can batch this provider's calls. */
export function hasBatchApi(provider: ProviderSettings['spec']['provider']): boolean {
  return providerDescriptor(provider).batch && providerWire(provider).batchApi !== undefined;
}
