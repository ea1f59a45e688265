import { describe, expect, it } from 'vitest';
import { redactArgv } from '../../src/cli/redact-argv.js';

describe('redactArgv', () => {
  it('masks secret-looking values and tokens, and leaves the rest', () => {
    expect(redactArgv(['run', '--filter', 'refunds/*', '--api-key=sk-abcdef123456', 'TOKEN=xyz', 'Bearer abc.def', 'sk-proj-1234567890'])).toEqual([
      'run',
      '--filter',
      'refunds/*',
      '--api-key=[redacted]',
      'TOKEN=[redacted]',
      'Bearer [redacted]',
      '[redacted]',
    ]);
  });
});
