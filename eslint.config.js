// Lint rules: the recommended sets of ESLint and typescript-eslint; Prettier owns formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const togetherMessage =
  'Use together(): with Promise.all a failure ends the test while sibling requests are in flight.';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Every failure of a check is charged to one requirement (CONTRIBUTING.md): a soft assertion
    // would fail a check without saying which requirement it broke, a fixme hide one.
    files: ['tests/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'expect', property: 'soft', message: 'Collect problems in a matcher instead.' },
        { object: 'test', property: 'fixme', message: 'A known hole belongs in an issue.' },
        { object: 'Promise', property: 'all', message: togetherMessage },
      ],
    },
  },
  {
    // The matchers are asynchronous (a failed check may send the diagnosis' control requests): one
    // not awaited would judge nothing before the test ends.
    files: ['tests/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // Requests side by side must all settle before a failure ends the test (vocabulary/together.ts).
    files: ['tests/support/vocabulary/*.ts'],
    ignores: ['tests/support/vocabulary/together.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Promise', property: 'all', message: togetherMessage },
      ],
    },
  },
);
