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

  it('masks GitHub, AWS and Slack tokens, and the value after a secret-named option given as its own argument', () => {
    const gh = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const aws = 'AKIA' + 'IOSFODNN7EXAMPLE';
    const slack = 'xoxb-' + '1234567890-0987654321-AbCdEfGhIjKl';
    expect(redactArgv(['--header', `x=${gh}`, aws, slack, '--api-key', 'plainvalue123', '--token', 'tok', '--filter', 'keep-me'])).toEqual([
      '--header',
      'x=[redacted]',
      '[redacted]',
      '[redacted]',
      '--api-key',
      '[redacted]',
      '--token',
      '[redacted]',
      '--filter',
      'keep-me',
    ]);
  });
});
