import { randomBytes } from 'node:crypto';

/** `20260101-120000-a1b2c3`: when the run started, and a few random bytes so parallel runs differ. */
export function runIdAt(startedAt: string): string {
  return `${startedAt.replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
}
