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
    expect(redactArgv(['--header', 'x: plain', `x=${gh}`, aws, slack, '--api-key', 'plainvalue123', '--token', 'tok', '--filter', 'keep-me'])).toEqual([
      '--header',
      '[redacted]',
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

  it('masks GitLab and Google keys, JWTs and URL passwords wherever they stand, keeping what surrounds them', () => {
    const gitlab = 'glpat-' + 'Xy12Ab34Cd56Ef78Gh90';
    const google = 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9' + '.eyJzdWIiOiIxMjM0NTY3ODkwIn0' + '.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(redactArgv(['run', gitlab, `--filter=${google}`, `x/${jwt}`, 'https://alice:s3cret-pw@db.example:5432/x', 'http://host:8080/path', 'refunds/*'])).toEqual([
      'run',
      '[redacted]',
      '--filter=[redacted]',
      'x/[redacted]',
      'https://alice:[redacted]@db.example:5432/x',
      'http://host:8080/path',
      'refunds/*',
    ]);
  });

  it('masks the value after or attached to a short flag that carries a credential in other tools (-k -p -u -H -a), and no agent-evals short flag', () => {
    expect(
      redactArgv(['-k', 'plainvalue123', '-p', 'hunter2', '-u', 'me:pw', '-H', 'X-Auth: abc', '-kAttached9', '-a', 'v', '-c', 'evals.config.ts', '-f', 'suite/*', '-t', 'smoke', '-j', '4', '-r', '3']),
    ).toEqual([
      '-k',
      '[redacted]',
      '-p',
      '[redacted]',
      '-u',
      '[redacted]',
      '-H',
      '[redacted]',
      '-k[redacted]',
      '-a',
      '[redacted]',
      '-c',
      'evals.config.ts',
      '-f',
      'suite/*',
      '-t',
      'smoke',
      '-j',
      '4',
      '-r',
      '3',
    ]);
  });
});
