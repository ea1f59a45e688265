/**
 * The newest framework line installs from its own lock (lines/newest.lock.json, `npm run lines:lock`):
 * a dependency added to package.json but not to that lock passes every root test and then fails CI's
 * newest-line step at `npm ci`. Said here, where `npm test` reads it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

describe('lines/newest.lock.json', () => {
  it("holds the root package.json's dependencies, and its devDependencies under the line's (else run `npm run lines:lock`)", () => {
    const root = json('package.json');
    const line = json('lines/newest.json');
    const locked = (json('lines/newest.lock.json').packages as Record<string, Record<string, unknown>>)['']!;
    expect(locked.dependencies).toEqual(root.dependencies);
    expect(locked.devDependencies).toEqual({ ...root.devDependencies, ...line.devDependencies });
  });
});
