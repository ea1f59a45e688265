/**
 * Which cases a selection (--filter, --tag, --exclude-tag, --repeat) picks over test/fixtures/runner:
 * the CLI's own prepareCases, as `list` and `run` call it, and in-process runs of the selection.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCases, type SelectionFlags } from '../../src/cli/prepare.js';
import { fixtureDir, removeTempDirs } from '../support/cli.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

/** The keys `agent-evals list` would print, in its order. */
async function keys(flags: SelectionFlags): Promise<string[]> {
  const { cases } = await prepareCases([], flags, fixtureDir('runner'));
  return cases.map((c) => c.key);
}

describe.concurrent('selection: --filter, --tag, --exclude-tag', () => {
  it('selects by filter glob, prefix, tags and excluded tags', async () => {
    const [glob, prefix, tag, bothTags, exclude, filterAndExclude, twoFilters] = await Promise.all([
      keys({ filter: ['select/alpha*'] }),
      keys({ filter: ['select'] }),
      keys({ tag: ['alpha'] }),
      keys({ tag: ['alpha', 'beta'] }),
      keys({ tag: ['sel'], excludeTag: ['beta'] }),
      keys({ filter: ['select'], excludeTag: ['alpha'] }),
      keys({ filter: ['select/beta-only', 'flaky/rate-06'] }),
    ]);
    expect(glob).toEqual(['select/alpha-only', 'select/alpha-beta']);
    expect(prefix).toEqual(['select/alpha-only', 'select/beta-only', 'select/alpha-beta']);
    expect(tag).toEqual(['select/alpha-only', 'select/alpha-beta']);
    expect(bothTags).toEqual(['select/alpha-beta']);
    expect(exclude).toEqual(['select/alpha-only']);
    expect(filterAndExclude).toEqual(['select/beta-only']);
    expect(twoFilters).toEqual(['flaky/rate-06', 'select/beta-only']);
  });

  it('a run executes only the selected cases', async () => {
    const r = await runFixtureInProcess('runner', { selection: { tag: ['alpha'], excludeTag: ['beta'] } });
    expect(r.code, explain(r)).toBe(0);
    expect(r.calls()).toEqual(['select/alpha-only#0']);
    expect(r.results().cases.map((c) => `${c.suite}/${c.id}`)).toEqual(['select/alpha-only']);
    expect(r.stdout).toContain('select/alpha-only');
    expect(r.stdout).not.toContain('select/alpha-beta');
  });

  it('a run filtered by a glob selects across suites', async () => {
    const r = await runFixtureInProcess('runner', { selection: { filter: ['*/rate-0*'], repeat: 1 } });
    // rate-08 and rate-06 each run one trial, which passes (trial 0 < 3).
    expect(r.code, explain(r)).toBe(0);
    expect(r.calls().sort()).toEqual(['flaky/rate-06#0', 'flaky/rate-08#0']);
  });
});
