import { describe, expect, it } from 'vitest';
import { JudgeResponseError, ProviderConfigError, ProviderError } from '../../src/core/errors.js';
import { probeFailure } from '../../src/runner/doctor/probe-failure.js';

describe('probeFailure', () => {
  const hint = (err: unknown) => probeFailure('reply', err, 'MY_KEY').hint;

  it('names the fix for each kind of failure, keeping the provider message', () => {
    expect(hint(new ProviderConfigError('missing API key for openai: set MY_KEY'))).toBe('set MY_KEY');
    expect(hint(new ProviderError('openai', 'auth', 'authentication failed for openai: check MY_KEY', 401))).toBe('wrong or missing key in MY_KEY');
    expect(hint(new ProviderError('openai', 'not_found', 'openai answered 404', 404))).toMatch(/^unknown model/);
    expect(hint(new ProviderError('openai', 'connection', 'could not reach openai'))).toMatch(/check the base URL/);
    const bad = probeFailure('structured answer', new ProviderError('anthropic', 'bad_request', 'anthropic rejected the request: 400 temperature: Extra inputs are not permitted', 400), 'K');
    expect(bad).toEqual({
      step: 'structured answer',
      message: 'anthropic rejected the request: 400 temperature: Extra inputs are not permitted',
      hint: expect.stringMatching(/^unsupported parameter or value/),
    });
  });

  it('a 400 about the model itself is an unknown model, not a parameter', () => {
    expect(hint(new ProviderError('openai', 'bad_request', 'openai rejected the request: 400 The model `gpt-9` does not exist', 400))).toMatch(/^unknown model/);
    expect(hint(new ProviderError('openai', 'bad_request', 'openai rejected the request: 400 invalid model ID', 400))).toMatch(/^unknown model/);
  });

  it('an answer the judge cannot read points at the structured-output mode', () => {
    expect(hint(new JudgeResponseError('not JSON', 'hello'))).toMatch(/capabilities\.structuredOutput/);
  });
});
