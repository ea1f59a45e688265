// Lint: the recommended JS and typescript-eslint sets, typed for TypeScript so that promise
// mistakes (a floating or misused promise can hang or crash a run) are caught.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // A disable comment that no longer suppresses anything fails the lint, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    ignores: [
      'dist/**',
      'schemas/**',
      'node_modules/**',
      'bench/work/**',
      '.agent-evals/**',
      // The newest framework line's copy of the repository (scripts/lines.mjs).
      '.lines/**',
      // Deliberately broken eval files: the loader's error tests read them.
      'test/fixtures/runner/bad/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // One program for src, tests, evals and examples: tsconfig.test.json includes them all.
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A dropped rejection or an un-awaited step can hang or crash a run: never leave a promise unhandled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_name` marks a value deliberately unused (a destructured field dropped, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Interface methods that return a Promise are `async` without `await` so that a throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Option bags declare callbacks in method shorthand (`warn?(m): void`) and none uses `this`.
      '@typescript-eslint/unbound-method': 'off',
      // Every String(unknown) is the fallback after JSON.stringify refused a value (a cycle, a BigInt, a function).
      '@typescript-eslint/no-base-to-string': 'off',
      // Abort paths reject with the signal's own reason, whatever it is, as fetch does.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // A spread passes every element as an argument on the stack: past ~125,000 of them the call throws
    // "Maximum call stack size exceeded" (a dataset of that many rows did). Arrays in src/ can be as long as
    // the cases, trials or rows: append with pushAll (core/push-all.ts) or a loop, take a max or min with a loop or reduce.
    files: ['src/**/*.ts', 'page/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement',
          message: 'push(...items) overflows the stack past ~125,000 items: use pushAll (core/push-all.ts) or a loop.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement",
          message: 'Math.max/min(...values) overflows the stack past ~125,000 values: use largest / smallest (core/extremes.ts), a loop or reduce.',
        },
        {
          selector: "CallExpression[callee.object.name='String'][callee.property.name=/^(fromCharCode|fromCodePoint)$/] > SpreadElement",
          message: 'String.fromCharCode(...codes) overflows the stack past ~125,000 codes: decode with TextDecoder or in chunks.',
        },
      ],
    },
  },
  {
    // The page's browser code: typed against the DOM by its own program, which has no Node types.
    files: ['page/**/*.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { project: './page/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Not in any tsconfig: linted without types. The framework examples are typed against the newest
    // framework majors, which only the newest line installs (`npm run test:lines` type-checks them there).
    files: ['vitest.config.ts', 'examples/frameworks/**/*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read results JSON and wire bodies as loose `any`; a wrong field fails the assertion anyway.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Tests match terminal escapes and control characters on purpose.
      'no-control-regex': 'off',
    },
  },
);
