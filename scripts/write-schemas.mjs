// Regenerates schemas/*.json from the zod schemas (run after `npm run build`).
import { writeFileSync, mkdirSync } from 'node:fs';
import { jsonSchemas, renderSchema } from '../dist/suite/json-schemas.js';

mkdirSync(new URL('../schemas/', import.meta.url), { recursive: true });
for (const [name, schema] of Object.entries(jsonSchemas())) {
  writeFileSync(new URL(`../schemas/${name}`, import.meta.url), renderSchema(schema));
  console.log(`wrote schemas/${name}`);
}
