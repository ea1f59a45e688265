/**
 * The Bedrock client: `@anthropic-ai/bedrock-sdk`'s AnthropicBedrock over the project's transport
 * (limiter, per-attempt timeouts, proxy), credentials read from the run's environment as the SDK
 * documents them (its client, 1.1.4): a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is sent as a
 * bearer token; else requests are SigV4-signed with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and
 * AWS_SESSION_TOKEN) when set, else with the AWS credential chain (AWS_PROFILE, SSO, roles).
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { regionOf } from '../../model-spec.js';
import { providerDescriptor } from '../../registry.js';
import { sdkClientOptions, type ProviderSettings } from '../../settings.js';
import { AnthropicProvider } from '../anthropic/anthropic.js';
import { cloudErrorMapper, envValues } from '../anthropic/cloud-errors.js';
import { BEDROCK_TABLE } from './facts.js';
import { scopeBackIn, scopeOutOfSignature } from './unsigned-scope.js';

export function bedrockProvider(settings: ProviderSettings): AnthropicProvider {
  const { env } = settings.network;
  const { apiKey: _key, fetch, ...options } = sdkClientOptions(settings);
  const common = {
    ...options,
    fetch: scopeBackIn(fetch),
    middleware: [scopeOutOfSignature],
    // null, not undefined: the SDK would read AWS_BEARER_TOKEN_BEDROCK from process.env, not the run's environment.
    apiKey: env[settings.apiKeyEnv]?.trim() || null,
    awsRegion: regionOf(settings.spec.provider, env)!,
  };
  const accessKey = env.AWS_ACCESS_KEY_ID?.trim();
  const secretKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  const client =
    accessKey && secretKey
      ? new AnthropicBedrock({ ...common, awsAccessKey: accessKey, awsSecretKey: secretKey, awsSessionToken: env.AWS_SESSION_TOKEN?.trim() || null })
      : new AnthropicBedrock(common);
  return new AnthropicProvider(settings, {
    client,
    table: BEDROCK_TABLE,
    toError: cloudErrorMapper({
      hint: providerDescriptor(settings.spec.provider).credentials ?? settings.apiKeyEnv,
      chainFailure: 'Failed to resolve AWS credentials',
      secrets: envValues(env, ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', settings.apiKeyEnv]),
    }),
  });
}
