// Regenerates docs/reference/*.md from the built code (run after `npm run build`; `npm run docs` does both).
import { mkdirSync, writeFileSync } from 'node:fs';
import { referencePages } from './docs/reference.mjs';

const root = new URL('../', import.meta.url);
mkdirSync(new URL('docs/reference/', root), { recursive: true });
for (const [path, text] of Object.entries(await referencePages('dist'))) {
  writeFileSync(new URL(path, root), text);
  console.log(`wrote ${path}`);
}
