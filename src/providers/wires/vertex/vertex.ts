/**
 * The Vertex AI client: `@anthropic-ai/vertex-sdk`'s AnthropicVertex over the project's transport
 * (limiter, per-attempt timeouts, proxy). Region and project come from the run's environment
 * (CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID; without a project id the SDK takes the credentials'
 * own); the OAuth token comes from Google's application default credentials, which the SDK's
 * google-auth-library reads from the process environment (GOOGLE_APPLICATION_CREDENTIALS, gcloud's
 * application-default login, the metadata server) and fetches with its own HTTP client.
 */
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { regionOf } from '../../model-spec.js';
import { providerDescriptor } from '../../registry.js';
import { sdkClientOptions, type ProviderSettings } from '../../settings.js';
import { AnthropicProvider } from '../anthropic/anthropic.js';
import { cloudErrorMapper } from '../anthropic/cloud-errors.js';
import { VERTEX_TABLE } from './facts.js';

export function vertexProvider(settings: ProviderSettings): AnthropicProvider {
  const { env } = settings.network;
  // No API key: the client refuses one (Google OAuth only).
  const { apiKey: _key, ...options } = sdkClientOptions(settings);
  const client = new AnthropicVertex({
    ...options,
    region: regionOf(settings.spec.provider, env)!,
    projectId: env.ANTHROPIC_VERTEX_PROJECT_ID?.trim() || null,
  });
  return new AnthropicProvider(settings, {
    client,
    table: VERTEX_TABLE,
    toError: cloudErrorMapper({
      hint: providerDescriptor(settings.spec.provider).credentials ?? settings.apiKeyEnv,
      chainFailure: 'Failed to acquire Google OAuth credentials',
      secrets: [],
    }),
  });
}
