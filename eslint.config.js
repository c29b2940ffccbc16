import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e-artifacts/**', 'scratch/**', '.scratch/**'] },
  {
    // Node scripts (plain .mjs): Node's globals.
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // Classic scripts the page loads before the app (public/theme.js): the browser's globals.
    files: ['public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', location: 'readonly', navigator: 'readonly' } },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The simulator and protocols must be deterministic: no wall clock, no ambient randomness.
    files: ['src/sim/**/*.ts', 'src/protocols/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded Rng handed in.' },
        { object: 'Date', property: 'now', message: 'Use simulated time from the scheduler.' },
        { object: 'performance', property: 'now', message: 'Use simulated time from the scheduler.' },
      ],
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'requestAnimationFrame'],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
