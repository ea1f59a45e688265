// Rewrites the README's provider list from the registry (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { withProviderList } from '../dist/providers/provider-docs.js';

const path = new URL('../README.md', import.meta.url);
const next = withProviderList(readFileSync(path, 'utf8'));
if (next === undefined) {
  console.error('README.md has no provider-list markers');
  process.exit(1);
}
writeFileSync(path, next);
console.log('wrote the provider list in README.md');
