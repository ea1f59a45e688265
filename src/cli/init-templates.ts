/** The text `agent-evals init` writes: a config, one example eval, the .gitignore entry. Data only. */

/** The folder runs write to (config default `outputDir`), ignored by git. */
export const GITIGNORE_ENTRY = '.agent-evals/';

export const EXAMPLE_EVAL_PATH = 'evals/example.eval.yaml';

/** The config, for a TypeScript project (`ts`) or a plain JavaScript one (`mjs`). */
export function configTemplate(lang: 'ts' | 'mjs'): string {
  const target = lang === 'ts' ? '(input: string): string' : '(input)';
  return `import { defineConfig } from 'agent-evals';

export default defineConfig({
  evals: ['evals/**/*.eval.{yaml,yml,ts}'],
  targets: {
    // An example function target: no model, no key, so the example eval runs offline at once.
    // Replace it with your agent (a function, a command, an HTTP endpoint or a model).
    'example-agent': ${target} => {
      const name = /I am (\\w+)/i.exec(input)?.[1];
      return name ? \`Hello \${name}, how can I help you today?\` : 'Hello! How can I help you today?';
    },
  },
  // The offline \`fake\` judge gives every judged assertion a fixed passing score: no model, no tokens.
  // To judge with a real model, set e.g. judge: 'openai:gpt-5.4-mini' and OPENAI_API_KEY.
  judge: 'fake',
});
`;
}

/** The example eval; its first line points editors at the installed package's schema. */
export const EXAMPLE_EVAL = `# yaml-language-server: $schema=../node_modules/agent-evals/schemas/eval-file.schema.json
# An example eval: deterministic assertions first, then a judged one (answered by the offline fake
# judge until the config names a real one). Run it with \`npx agent-evals run\`.
suite: example
target: example-agent
repeat: 2
cases:
  - id: greets-by-name
    input: Hi, I am Ada.
    assert:
      - type: contains
        value: Ada
      - type: notContains
        value: error
        caseSensitive: false
      - type: judge
        criteria: Greets the user by name and offers help, politely.
        threshold: 0.7
`;
