/**
 * The SDKs some providers need beyond the bundled ones are optional peer dependencies (package.json),
 * so a project that never names those providers does not install them. Whether one is installed is
 * checked when a model spec naming its provider is resolved: resolved, not loaded (the SDK is
 * imported on the first call), so a missing one stops the run before it starts, naming what to install.
 */
import { createRequire } from 'node:module';
import { ProviderConfigError } from '../core/errors.js';
import { providerDescriptor, type ProviderId } from './registry.js';

const require = createRequire(import.meta.url);
const found = new Set<string>();

export function checkSdkPackage(provider: ProviderId): void {
  const pkg = providerDescriptor(provider).sdkPackage;
  if (pkg === undefined || found.has(pkg)) return;
  try {
    require.resolve(pkg);
  } catch {
    throw new ProviderConfigError(`the ${provider} provider needs ${pkg}, which is not installed; run: npm i -D ${pkg}`);
  }
  found.add(pkg);
}
