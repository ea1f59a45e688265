// `node --import <this file>`: counts how often the process reads YAML text with js-yaml's `load`
// and with `yaml`'s `parseDocument` (the calls pass through to the real libraries unchanged), and
// writes the counts as JSON to $YAML_READS_FILE when the process exits.
import { register } from 'node:module';
import { writeFileSync } from 'node:fs';

globalThis.__yamlReads = { jsYaml: 0, yamlDocument: 0 };
register('./hooks.mjs', import.meta.url);
process.on('exit', () => writeFileSync(process.env.YAML_READS_FILE, JSON.stringify(globalThis.__yamlReads)));
