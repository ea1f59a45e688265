/** The plugin table of docs/guide/red-team-plugins.md is hand-written: it stays in step with the registry. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redteamPlugins } from '../../src/redteam/index.js';
import { SUPPORT } from './support-target.js';

const page = readFileSync(join(import.meta.dirname, '../../docs/guide/red-team-plugins.md'), 'utf8');
const rows = new Map(
  page
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => [/^\| `([^`]+)`/.exec(l)![1]!, l]),
);

describe('docs/guide/red-team-plugins.md', () => {
  it('has one row per plugin, with how it is decided, its OWASP and agentic ids and its seeds', () => {
    expect([...rows.keys()]).toEqual(redteamPlugins.map((p) => p.id));
    for (const p of redteamPlugins) {
      const row = rows.get(p.id)!;
      expect(row.split('|')[3]!.trim().startsWith(p.decidedBy), p.id).toBe(true);
      for (const id of [...p.owasp, ...p.agentic]) expect(row, p.id).toContain(id);
      for (const seed of p.seeds(SUPPORT)) if (!seed.id.endsWith('-outside-allowlist')) expect(row, p.id).toContain(seed.id);
    }
  });
});
